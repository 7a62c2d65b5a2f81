"""memvault's embedders as LangChain ``Embeddings``.

The other direction needs no code: ``MemoryStore(embedder=any_langchain_embeddings)`` adapts a
LangChain ``Embeddings`` through :func:`memvault.embedding.as_embedder`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.embeddings import Embeddings

from memvault.arguments import check_texts, check_utf8
from memvault.embedding import resolve_embedder


class MemvaultEmbeddings(Embeddings):
    """A LangChain ``Embeddings`` over a memvault embedder, by default the offline MiniLM.

    Use it wherever LangChain wants embeddings (a vector store, ``InMemoryStore(index=...)``,
    a semantic cache) to embed exactly as the memvault store does, without any network.

    Args:
        embedder: Any embedder :func:`memvault.embedding.as_embedder` accepts; default
            :class:`memvault.MiniLMEmbedder` (all-MiniLM-L6-v2, 384 dimensions).

    Attributes:
        dim: Vector length.
        name: The model name memvault records in a store.

    Raises:
        memvault.errors.EmbedderUnavailableError: If the default model is not installed.
        memvault.InvalidArgumentError: If ``embedder`` is of no supported kind.

    """

    def __init__(self, embedder: Any = None) -> None:
        self.embedder = resolve_embedder(embedder)
        self.dim = int(self.embedder.dim)
        self.name = self.embedder.name

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns shape ``(len(texts), dim)`` (``Embeddings.embed_documents``).

        Raises:
            InvalidArgumentError: If ``texts`` is not a list of str (names the first that is
                not).
        """
        checked = check_texts(texts, "texts", "['I am vegan']")
        return [[float(x) for x in v] for v in self.embedder.embed_documents(checked)]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; returns shape ``(dim,)`` (``Embeddings.embed_query``).

        Raises:
            InvalidArgumentError: If ``text`` is not a str.
        """
        return [float(x) for x in self.embedder.embed_query(check_utf8(text, "text"))]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """Async form of :meth:`embed_documents`, run in a worker thread."""
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> list[float]:
        """Async form of :meth:`embed_query`, run in a worker thread."""
        return await asyncio.to_thread(self.embed_query, text)
