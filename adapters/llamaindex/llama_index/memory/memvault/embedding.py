"""memvault's embedders as a LlamaIndex ``BaseEmbedding``.

The other direction needs no adapter: a LlamaIndex ``BaseEmbedding`` can be given to
``memvault.MemoryStore(embedder=...)`` as it is (:func:`memvault.embedding.as_embedder` reads its
``get_text_embedding_batch`` / ``get_query_embedding``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.callbacks import CallbackManager
from llama_index.core.constants import DEFAULT_EMBED_BATCH_SIZE

from memvault import Embedder
from memvault.arguments import check_texts, check_utf8
from memvault.embedding import resolve_embedder


class MemvaultEmbedding(BaseEmbedding):
    """A memvault embedder, by default the offline all-MiniLM-L6-v2, as a LlamaIndex embedding.

    Use it as ``Settings.embed_model`` or for a ``VectorStoreIndex`` to embed with the same
    model as the memory store, offline. ``model_name`` is the embedder's ``name``.

    Args:
        embedder: Any embedder :func:`memvault.embedding.as_embedder` accepts; default
            :class:`memvault.MiniLMEmbedder` (384-d, unit length).
        embed_batch_size: Texts per call, as for any ``BaseEmbedding``.
        callback_manager: LlamaIndex callbacks.

    Raises:
        InvalidArgumentError: If ``embedder`` is of no supported kind.

    """

    _embedder: Embedder = PrivateAttr()

    def __init__(
        self,
        embedder: Any = None,
        *,
        embed_batch_size: int = DEFAULT_EMBED_BATCH_SIZE,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        adapted = resolve_embedder(embedder)
        super().__init__(
            model_name=adapted.name,
            embed_batch_size=embed_batch_size,
            callback_manager=callback_manager,
        )
        self._embedder = adapted

    @classmethod
    def class_name(cls) -> str:
        """Name used when LlamaIndex serialises the embedding."""
        return "MemvaultEmbedding"

    @property
    def dim(self) -> int:
        """Length of every vector."""
        return int(self._embedder.dim)

    def get_text_embedding_batch(
        self, texts: list[str], show_progress: bool = False, **kwargs: Any
    ) -> list[list[float]]:
        """``BaseEmbedding.get_text_embedding_batch``, ``texts`` checked first.

        Raises:
            InvalidArgumentError: If ``texts`` is not a list of str (one str would be embedded
                letter by letter), naming the first that is not.
        """
        checked = check_texts(texts, "texts", "['I am vegan']")
        return super().get_text_embedding_batch(checked, show_progress, **kwargs)

    async def aget_text_embedding_batch(
        self, texts: list[str], show_progress: bool = False, **kwargs: Any
    ) -> list[list[float]]:
        """Async form of :meth:`get_text_embedding_batch` (the same check)."""
        checked = check_texts(texts, "texts", "['I am vegan']")
        return await super().aget_text_embedding_batch(checked, show_progress, **kwargs)

    def _get_query_embedding(self, query: str) -> list[float]:
        """Embed a query; shape ``(dim,)`` (``BaseEmbedding`` hook).

        Raises:
            InvalidArgumentError: If ``query`` is not a str.
        """
        return self._embedder.embed_query(check_utf8(query, "query"))

    async def _aget_query_embedding(self, query: str) -> list[float]:
        """Async form of :meth:`_get_query_embedding`, run in a worker thread."""
        return await asyncio.to_thread(self._get_query_embedding, query)

    def _get_text_embedding(self, text: str) -> list[float]:
        """Embed one text; shape ``(dim,)`` (``BaseEmbedding`` hook).

        Raises:
            InvalidArgumentError: If ``text`` is not a str.
        """
        return self._embedder.embed_documents([check_utf8(text, "text")])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; shape ``(len(texts), dim)`` (``BaseEmbedding`` hook).

        Raises:
            InvalidArgumentError: If ``texts`` is not a list of str.
        """
        return self._embedder.embed_documents(check_texts(texts, "texts", "['I am vegan']"))

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        """Async form of :meth:`_get_text_embeddings`, run in a worker thread."""
        return await asyncio.to_thread(self._get_text_embeddings, texts)
