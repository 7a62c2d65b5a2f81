"""A LangChain retriever that recalls memvault memories as Documents."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import ConfigDict, Field

from langchain_memvault.run_scope import run_values
from memvault import AgentMemory, InvalidArgumentError, MemoryItem, MemoryScope, MemoryStore
from memvault.config import DEFAULT_NAMESPACE
from memvault.model import Namespace

SEARCH_KWARGS = frozenset({"k", "filter"})
"""The ``search_kwargs`` (and per-call keyword arguments) a :class:`MemvaultRetriever` takes."""


def memory_document(item: MemoryItem) -> Document:
    """Turn a memvault item into a LangChain ``Document``.

    Args:
        item: A :class:`memvault.MemoryItem`.

    Returns:
        A ``Document`` whose ``page_content`` is the memory text and whose metadata holds the
        item's other value entries, then ``key``, ``namespace`` (tuple), ``score`` (the
        search's relevance score, or ``None``), ``score_type`` (what ``score`` is:
        ``"cosine"``, ``"bm25"`` or ``"hybrid"``, see :attr:`memvault.MemoryItem.score_type`),
        ``created_at`` and ``updated_at`` (Unix seconds); these six names win over value
        entries of the same name.
    """
    metadata = {name: value for name, value in item.value.items() if name != "text"}
    metadata.update(
        key=item.key,
        namespace=item.namespace,
        score=item.score,
        score_type=item.score_type,
        created_at=item.created_at,
        updated_at=item.updated_at,
    )
    return Document(page_content=item.text, metadata=metadata, id=item.key)


class MemvaultRetriever(BaseRetriever):
    """Recall memories from a namespace (and below it) as ``Document`` s, most relevant first.

    Retrieval is :meth:`memvault.MemoryScope.recall`, the recall policy the middleware and
    the tools share: no two documents saying the same thing, and statements before stored
    questions or pleasantries. The namespace may be a template such as
    ``("users", "{user_id}")``, filled from each run's values (``configurable`` entries,
    LangGraph runtime context, thread id; see :func:`~langchain_memvault.run_scope.run_values`):
    ``invoke(query, config={"configurable": {"user_id": "alice"}})``.

    ``k`` and ``filter`` are taken, later winning, from the fields, from ``search_kwargs``
    (as ``VectorStoreRetriever`` takes them, e.g. ``{"k": 1}`` or ``{"filter": {...}}``) and
    from the call (``invoke(query, k=..., filter=...)``); ``None`` leaves the earlier value.

    Attributes:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace (template) to search, default ``("users", "{user_id}")``.
        k: Most documents per query, an int from 1 to 1000 (strictly: ``True`` and ``"5"``
            are refused, not read as 1 and 5).
        filter: Metadata filter on value fields (see :mod:`memvault.filters`), or ``None``.
        search_kwargs: ``k`` and/or ``filter`` overriding the fields.

    Raises:
        pydantic.ValidationError: If a field has the wrong type (e.g. ``namespace="users"``,
            ``k="5"``).
        memvault.errors.InvalidNamespaceError: If the namespace has an empty segment; from
            ``invoke``, if the run lacks a value its template needs (the retriever fails
            closed, never searching a shared namespace).
        memvault.InvalidArgumentError: On a bad ``k`` or a search keyword other than ``k`` and
            ``filter``, here or in ``invoke``.
        memvault.errors.InvalidFilterError: On a bad filter, here or in ``invoke``.

    Example:
        >>> retriever = MemvaultRetriever(store=store, search_kwargs={"k": 2})  # doctest: +SKIP
        >>> ada = {"configurable": {"user_id": "ada"}}  # doctest: +SKIP
        >>> retriever.invoke("what do I drink?", ada)  # doctest: +SKIP
        [Document(id='mem-...', metadata={...}, page_content='I drink green tea.')]
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: MemoryStore = Field(description="The memvault store to search.")
    namespace: Namespace = Field(
        default=DEFAULT_NAMESPACE,
        description="Namespace or template, e.g. ('users', '{user_id}'), filled per run.",
    )
    k: int = Field(default=4, strict=True, description="Most documents per query.")
    filter: dict[str, Any] | None = Field(default=None, description="Metadata filter.")
    search_kwargs: dict[str, Any] = Field(
        default_factory=dict, description="'k' and/or 'filter', overriding the fields."
    )

    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)
        self._memory()  # a bad namespace, k, filter or search keyword fails here, not later

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve the documents for ``input`` in the namespace of this run.

        Args:
            input: The query.
            config: The run's config; its values fill the namespace template.
            **kwargs: ``k`` and/or ``filter`` for this call.

        Returns:
            Up to ``k`` documents, most relevant first.

        Raises:
            memvault.errors.InvalidNamespaceError: If the run lacks a value the template needs.
        """
        config = ensure_config(config)
        return super().invoke(input, config, values=run_values(config), **kwargs)

    async def ainvoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Async form of :meth:`invoke` (same arguments, result and errors)."""
        config = ensure_config(config)
        return await super().ainvoke(input, config, values=run_values(config), **kwargs)

    def _memory(self, **call_kwargs: Any) -> AgentMemory:
        options = {"k": self.k, "filter": self.filter}
        for name, value in {**self.search_kwargs, **call_kwargs}.items():
            if name not in SEARCH_KWARGS:
                raise InvalidArgumentError(
                    f"MemvaultRetriever takes only {sorted(SEARCH_KWARGS)} as search keywords, "
                    f"got {name!r}"
                )
            if value is not None:
                options[name] = value
        return AgentMemory.of(self.store, namespace=self.namespace, **options)

    def _scope(self, values: dict[str, Any] | None, **call_kwargs: Any) -> MemoryScope:
        return self._memory(**call_kwargs).scope(values or {})

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        values: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        return [memory_document(item) for item in self._scope(values, **kwargs).recall(query)]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        values: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        items = await self._scope(values, **kwargs).arecall(query)
        return [memory_document(item) for item in items]
