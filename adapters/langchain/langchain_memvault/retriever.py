"""A LangChain retriever that recalls memvault memories as Documents."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import ConfigDict, Field, Strict, StrictFloat

from langchain_memvault.run_scope import run_values
from memvault import AgentMemory, InvalidArgumentError, MemoryItem, MemoryScope, MemoryStore
from memvault.config import DEFAULT_NAMESPACE
from memvault.items import validate_moment
from memvault.model import Namespace

SEARCH_KWARGS = frozenset({"k", "filter", "as_of"})
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
        ``created_at`` and ``updated_at`` (when it was written, Unix seconds), ``valid_from``
        and ``valid_to`` (when what it says held in the world, Unix seconds; ``valid_to``
        ``None`` while it still holds); these eight names win over value entries of the same
        name. A memory closed by a correction also has the value entry ``superseded_by`` (the
        key of the one that replaced it), its replacement ``supersedes``.
    """
    metadata = {name: value for name, value in item.value.items() if name != "text"}
    metadata.update(
        key=item.key,
        namespace=item.namespace,
        score=item.score,
        score_type=item.score_type,
        created_at=item.created_at,
        updated_at=item.updated_at,
        valid_from=item.valid_from,
        valid_to=item.valid_to,
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

    By default it recalls what holds now: a memory closed by a correction
    (:meth:`memvault.MemoryStore.supersede`, the ``remember`` tool's ``replaces``) is left
    out. ``as_of`` recalls what held at another time instead, e.g. where the user lived in
    April 2023 (:meth:`memvault.MemoryStore.search`).

    ``k``, ``filter`` and ``as_of`` are taken, later winning, from the fields, from
    ``search_kwargs`` (as ``VectorStoreRetriever`` takes them, e.g. ``{"k": 1}`` or
    ``{"filter": {...}}``) and from the call (``invoke(query, k=..., as_of=...)``); ``None``
    leaves the earlier value.

    Attributes:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace (template) to search, default ``("users", "{user_id}")``.
        k: Most documents per query, an int from 1 to 1000 (strictly: ``True`` and ``"5"``
            are refused, not read as 1 and 5).
        filter: Metadata filter on value fields (see :mod:`memvault.filters`), or ``None``.
        as_of: Recall what held at this time: Unix seconds or a ``datetime`` (naive means
            UTC), strictly (a string is refused); ``None`` (default): what holds now.
        search_kwargs: ``k``, ``filter`` and/or ``as_of`` overriding the fields.

    Raises:
        pydantic.ValidationError: If a field has the wrong type (e.g. ``namespace="users"``,
            ``k="5"``, ``as_of="2023-04-15"``).
        memvault.errors.InvalidNamespaceError: If the namespace has an empty segment; from
            ``invoke``, if the run lacks a value its template needs (the retriever fails
            closed, never searching a shared namespace).
        memvault.InvalidArgumentError: On a bad ``k`` or ``as_of`` (not seconds or a
            ``datetime``, or before 1970), or a search keyword other than ``k``, ``filter``
            and ``as_of``, here or in ``invoke``.
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
    as_of: StrictFloat | Annotated[datetime, Strict()] | None = Field(
        default=None,
        description="Recall what held at this time (Unix seconds or datetime); None: now.",
    )
    search_kwargs: dict[str, Any] = Field(
        default_factory=dict,
        description="'k', 'filter' and/or 'as_of', overriding the fields.",
    )

    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)
        self._search()  # a bad namespace, k, filter, as_of or search keyword fails here

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve the documents for ``input`` in the namespace of this run.

        Args:
            input: The query.
            config: The run's config; its values fill the namespace template.
            **kwargs: ``k``, ``filter`` and/or ``as_of`` for this call.

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

    def _search(self, **call_kwargs: Any) -> tuple[AgentMemory, float | None]:
        """The memory (template, ``k``, filter) and ``as_of`` (seconds or ``None``) of a call."""
        options = {"k": self.k, "filter": self.filter, "as_of": self.as_of}
        for name, value in {**self.search_kwargs, **call_kwargs}.items():
            if name not in SEARCH_KWARGS:
                raise InvalidArgumentError(
                    f"MemvaultRetriever takes only {sorted(SEARCH_KWARGS)} as search keywords, "
                    f"got {name!r}"
                )
            if value is not None:
                options[name] = value
        as_of = validate_moment(options.pop("as_of"), "as_of", optional=True)
        return AgentMemory.of(self.store, namespace=self.namespace, **options), as_of

    def _scope(
        self, values: dict[str, Any] | None, **call_kwargs: Any
    ) -> tuple[MemoryScope, float | None]:
        memory, as_of = self._search(**call_kwargs)
        return memory.scope(values or {}), as_of

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        values: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        scope, as_of = self._scope(values, **kwargs)
        return [memory_document(item) for item in scope.recall(query, as_of=as_of)]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        values: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        scope, as_of = self._scope(values, **kwargs)
        return [memory_document(item) for item in await scope.arecall(query, as_of=as_of)]
