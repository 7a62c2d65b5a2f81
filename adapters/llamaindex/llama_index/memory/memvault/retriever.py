"""A LlamaIndex retriever over one memvault namespace."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from llama_index.memory.memvault.block import DEFAULT_NAMESPACE

from memvault import InvalidArgumentError, MemoryItem, format_namespace_path, resolve_namespace
from memvault.filters import normalize_filter


def _node(item: MemoryItem) -> NodeWithScore:
    metadata = {key: value for key, value in item.value.items() if key != "text"}
    metadata.update(
        namespace=format_namespace_path(item.namespace),
        key=item.key,
        created_at=item.created_at,
        updated_at=item.updated_at,
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
    """Retrieve memories from a memvault namespace (and below it) as ``NodeWithScore``.

    Each node's text is the memory's ``text``; its id is the namespace path plus the key
    (``"users/alice/tea"``), its score the cosine similarity, and its metadata the value's other
    fields plus ``namespace`` (a path string), ``key``, ``created_at`` and ``updated_at`` (Unix
    seconds), all hidden from the LLM and the embedder.

    Args:
        store: A :class:`memvault.MemoryStore`.
        user_id: Fills ``{user_id}`` in ``namespace``.
        session_id: Fills ``{session_id}`` in ``namespace``.
        namespace: Namespace template; default ``("users", "{user_id}")``.
        k: Most nodes per query, ``>= 1``.
        filter: Metadata filter (see :mod:`memvault.filters`).
        callback_manager: LlamaIndex callbacks, as for any ``BaseRetriever``.

    Raises:
        InvalidArgumentError: If ``k`` is not a positive int.
        InvalidFilterError: If ``filter`` is not a valid memvault filter.
        InvalidNamespaceError: If the template needs a value that is not given.

    """

    def __init__(
        self,
        store: Any,
        *,
        user_id: str | None = None,
        session_id: str | None = None,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        k: int = 5,
        filter: dict[str, Any] | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidArgumentError(f"k must be an int >= 1, got {k!r}")
        normalize_filter(filter)
        self.store = store
        self.namespace = resolve_namespace(
            namespace, {"user_id": user_id, "session_id": session_id}
        )
        self.k = k
        self.filter = filter
        super().__init__(callback_manager=callback_manager)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Search the namespace for the query (``BaseRetriever._retrieve``)."""
        items = self.store.search(
            self.namespace, query=query_bundle.query_str, filter=self.filter, limit=self.k
        )
        return [_node(item) for item in items]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Async form of :meth:`_retrieve` (``BaseRetriever._aretrieve``)."""
        items = await self.store.asearch(
            self.namespace, query=query_bundle.query_str, filter=self.filter, limit=self.k
        )
        return [_node(item) for item in items]
