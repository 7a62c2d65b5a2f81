"""A LangChain retriever that recalls memvault memories as Documents."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from memvault import MemoryItem, MemoryStore
from memvault.namespace import Namespace


def memory_document(item: MemoryItem) -> Document:
    """Turn a memvault item into a LangChain ``Document``.

    Args:
        item: A :class:`memvault.MemoryItem`.

    Returns:
        A ``Document`` whose ``page_content`` is the memory text and whose metadata holds the
        item's other value entries, then ``key``, ``namespace`` (tuple), ``score`` (cosine
        similarity or ``None``), ``created_at`` and ``updated_at`` (Unix seconds); these five
        names win over value entries of the same name.

    """
    metadata = {name: value for name, value in item.value.items() if name != "text"}
    metadata.update(
        key=item.key,
        namespace=item.namespace,
        score=item.score,
        created_at=item.created_at,
        updated_at=item.updated_at,
    )
    return Document(page_content=item.text, metadata=metadata, id=item.key)


class MemvaultRetriever(BaseRetriever):
    """Recall memories from a namespace (and below it) as ``Document`` s, most relevant first.

    ``invoke(query, k=..., filter=...)`` overrides ``k`` and ``filter`` for one call.

    Attributes:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace prefix to search, e.g. ``("users", "alice")``.
        k: Most documents per query, ``>= 1``.
        filter: Metadata filter on value fields (see :mod:`memvault.filters`), or ``None``.

    Raises:
        memvault.InvalidArgumentError, memvault.InvalidFilterError,
            memvault.InvalidNamespaceError: From ``invoke`` on a bad ``k``, filter or namespace.

    Example:
        >>> retriever = MemvaultRetriever(store=store, namespace=("users", "ada"))  # doctest: +SKIP
        >>> retriever.invoke("what does alice drink?")[0].page_content  # doctest: +SKIP
        'Alice drinks green tea'

    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: MemoryStore = Field(description="The memvault store to search.")
    namespace: Namespace = Field(description="Namespace prefix, e.g. ('users', 'alice').")
    k: int = Field(default=4, description="Most documents per query.")
    filter: dict[str, Any] | None = Field(default=None, description="Metadata filter.")

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        filter: dict[str, Any] | None = None,
    ) -> list[Document]:
        items = self.store.search(
            self.namespace,
            query=query,
            filter=self.filter if filter is None else filter,
            limit=self.k if k is None else k,
        )
        return [memory_document(item) for item in items]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        filter: dict[str, Any] | None = None,
    ) -> list[Document]:
        items = await self.store.asearch(
            self.namespace,
            query=query,
            filter=self.filter if filter is None else filter,
            limit=self.k if k is None else k,
        )
        return [memory_document(item) for item in items]
