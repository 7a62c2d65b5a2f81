"""A LlamaIndex retriever over memvault memories."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, QueryType, TextNode
from llama_index.memory.memvault.block import agent_memory

from memvault import AgentMemory, InvalidArgumentError, MemoryItem, MemoryStore
from memvault.arguments import NOT_GIVEN
from memvault.errors import shown
from memvault.items import validate_moment
from memvault.namespace import format_namespace_path


def _checked(query: Any) -> QueryType:
    if not isinstance(query, (str, QueryBundle)):
        raise InvalidArgumentError(
            f"query must be a str or a llama_index QueryBundle, got {type(query).__name__} "
            f"{shown(query)}"
        )
    return query


def _node(item: MemoryItem) -> NodeWithScore:
    metadata = {key: value for key, value in item.value.items() if key != "text"}
    metadata.update(
        namespace=format_namespace_path(item.namespace),
        key=item.key,
        created_at=item.created_at,
        updated_at=item.updated_at,
        valid_from=item.valid_from,
        valid_to=item.valid_to,
        score_type=item.score_type,
    )
    node = TextNode(
        id_=format_namespace_path((*item.namespace, item.key)),
        text=item.text,
        metadata=metadata,
        excluded_embed_metadata_keys=list(metadata),
        excluded_llm_metadata_keys=list(metadata),
    )
    return NodeWithScore(node=node, score=item.score)


class MemvaultRetriever(BaseRetriever):
    """Retrieve memories as ``NodeWithScore``, through :meth:`memvault.MemoryScope.recall`.

    Recall's policy applies: up to ``similarity_top_k`` memories, no two saying the same thing,
    statements before stored questions. Each node's text is the memory's ``text``; its id is the
    namespace path plus the key (``"users/alice/mem-3f2a..."``); its score is what the metadata's
    ``score_type`` says (``"cosine"`` similarity, ``"bm25"``, or ``"hybrid"`` for the fused
    score of hybrid search; higher is better); its metadata is the value's other fields plus
    ``namespace`` (a path string), ``key``, ``created_at`` and ``updated_at`` (when it was
    written, Unix seconds), ``valid_from`` and ``valid_to`` (when what it says held in the
    world, Unix seconds; ``valid_to`` is ``None`` while it still holds) and ``score_type``,
    all hidden from the LLM and the embedder. A memory closed by a correction also has the
    value field ``superseded_by`` (the key of the one that replaced it), its replacement
    ``supersedes``.

    It recalls what holds now: a memory closed by a correction
    (:meth:`memvault.MemoryStore.supersede`, the ``remember`` tool's ``replaces``) is left
    out. With ``as_of`` it recalls what held at that time instead (where the user lived in
    April 2023); a retriever serves one time, so make one per ``as_of``.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped in one with ``namespace``, ``similarity_top_k`` and ``filter``.
        user_id: Fills ``{user_id}`` in the namespace template.
        session_id: Fills ``{session_id}`` in the namespace template.
        namespace: Namespace template (store only); default ``("users", "{user_id}")``.
        similarity_top_k: Most nodes per query, 1 to 1000 (store only); default 5 (with an
            ``AgentMemory``: its ``k``).
        filter: Metadata filter (store only; see :mod:`memvault.filters`).
        as_of: Recall what held at this time: Unix seconds or a ``datetime`` (naive means
            UTC); ``None`` (default): what holds now.
        callback_manager: LlamaIndex callbacks, as for any ``BaseRetriever``.

    Raises:
        InvalidArgumentError: If ``memory_or_store`` is neither kind, a store option is given
            with an ``AgentMemory``, ``similarity_top_k`` is out of range, or ``as_of`` is
            neither seconds nor a ``datetime`` (or before 1970); from
            :meth:`retrieve`, on a query that is not a str or ``QueryBundle``.
        InvalidFilterError: If ``filter`` is not a valid memvault filter.
        InvalidNamespaceError: If the template needs a value that is not given.

    Attributes:
        scope: The :class:`memvault.MemoryScope` recalled from.
        as_of: ``as_of`` in Unix seconds, or ``None``.
    """

    def __init__(
        self,
        memory_or_store: AgentMemory | MemoryStore,
        *,
        user_id: str | None = None,
        session_id: str | None = None,
        namespace: Sequence[str] = NOT_GIVEN,
        similarity_top_k: int = NOT_GIVEN,
        filter: dict[str, Any] | None = NOT_GIVEN,
        as_of: float | datetime | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        memory = agent_memory(
            memory_or_store, namespace=namespace, similarity_top_k=similarity_top_k, filter=filter
        )
        self.scope = memory.scope({"user_id": user_id, "session_id": session_id})
        self.as_of = validate_moment(as_of, "as_of", optional=True)
        super().__init__(callback_manager=callback_manager)

    def retrieve(self, str_or_query_bundle: QueryType) -> list[NodeWithScore]:
        """Recall the nodes for a query (``BaseRetriever.retrieve``), the query checked first.

        Args:
            str_or_query_bundle: The query, a str or a ``QueryBundle``.

        Returns:
            Up to ``similarity_top_k`` nodes, most relevant first.

        Raises:
            InvalidArgumentError: If the query is neither a str nor a ``QueryBundle`` (LlamaIndex
                takes anything else for a ``QueryBundle``: bytes failed with
                ``AttributeError``), or is not UTF-8.
        """
        return super().retrieve(_checked(str_or_query_bundle))

    async def aretrieve(self, str_or_query_bundle: QueryType) -> list[NodeWithScore]:
        """Async form of :meth:`retrieve`: the same arguments, result and errors."""
        return await super().aretrieve(_checked(str_or_query_bundle))

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Recall memories for the query (``BaseRetriever._retrieve``)."""
        items = self.scope.recall(query_bundle.query_str, as_of=self.as_of)
        return [_node(item) for item in items]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Async form of :meth:`_retrieve` (``BaseRetriever._aretrieve``)."""
        items = await self.scope.arecall(query_bundle.query_str, as_of=self.as_of)
        return [_node(item) for item in items]
