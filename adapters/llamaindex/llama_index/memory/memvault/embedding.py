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

    def _get_query_embedding(self, query: str) -> list[float]:
        """Embed a query; shape ``(dim,)`` (``BaseEmbedding`` hook)."""
        return self._embedder.embed_query(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        """Async form of :meth:`_get_query_embedding`, run in a worker thread."""
        return await asyncio.to_thread(self._embedder.embed_query, query)

    def _get_text_embedding(self, text: str) -> list[float]:
        """Embed one text; shape ``(dim,)`` (``BaseEmbedding`` hook)."""
        return self._embedder.embed_documents([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; shape ``(len(texts), dim)`` (``BaseEmbedding`` hook)."""
        return self._embedder.embed_documents(list(texts))

    async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        """Async form of :meth:`_get_text_embeddings`, run in a worker thread."""
        return await asyncio.to_thread(self._embedder.embed_documents, list(texts))
