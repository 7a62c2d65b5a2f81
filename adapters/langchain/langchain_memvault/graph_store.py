"""A LangGraph ``BaseStore`` backed by memvault: persistent ``runtime.store`` for agents."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from langchain_memvault.graph_values import decode, encode, translate_filter
from memvault import NOT_GIVEN, InvalidArgumentError, MemoryItem, MemoryStore
from memvault.namespace import Namespace

_PAGE = 1000


def _time(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def _item(item: MemoryItem) -> Item:
    return Item(
        value=decode(item.value),
        key=item.key,
        namespace=item.namespace,
        created_at=_time(item.created_at),
        updated_at=_time(item.updated_at),
    )


def _search_item(item: MemoryItem) -> SearchItem:
    return SearchItem(
        namespace=item.namespace,
        key=item.key,
        value=decode(item.value),
        created_at=_time(item.created_at),
        updated_at=_time(item.updated_at),
        score=item.score,
    )


def _ttl_seconds(minutes: float | None) -> Any:
    if minutes is None:
        return NOT_GIVEN
    if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or minutes <= 0:
        raise InvalidArgumentError(
            f"ttl must be a positive number of MINUTES (LangGraph's unit) or None, got {minutes!r}"
        )
    return float(minutes) * 60.0


def _matches(namespace: Namespace, condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(p == "*" or p == s for s, p in zip(part, path, strict=True))


class MemvaultLangGraphStore(BaseStore):
    """LangGraph's ``BaseStore`` over a memvault store: persistent, searchable agent memory.

    Pass it as ``create_agent(..., store=...)`` or ``graph.compile(store=...)``; nodes, tools and
    middleware reach it as ``runtime.store`` and use LangGraph's API (``put``, ``get``,
    ``search``, ``delete``, ``list_namespaces`` and async twins) as on ``InMemoryStore``.

    How values are kept (any JSON dict, exact round trip, filters on nested fields) is described
    in :mod:`langchain_memvault.graph_values`. Differences from ``InMemoryStore``:

    - Every item is embedded, so ``search(query=...)`` always ranks by similarity and scores;
      ``index=False`` only means the whole value's JSON is embedded.
    - Without a query, search returns the most recently updated first (as ``PostgresStore``).
    - Overwriting keeps ``created_at``; ``list_namespaces`` lists namespaces holding live items.
    - A filter on a field an item lacks does not match (with ``$ne`` too), and ``$gt``-style
      operators never crash on missing or non-numeric fields.
    - ``ttl`` is in minutes, as in LangGraph, converted to memvault's seconds;
      ``ttl=None`` uses the memvault store's default ``ttl``. Reads do not refresh TTLs.

    Args:
        store: The :class:`memvault.MemoryStore`.
        fields: LangGraph index fields (JSON paths) whose text is embedded when ``put`` gets no
            ``index``; default ``("$",)``, the whole value.

    Raises:
        memvault.MemvaultError: From the operations, on bad input (namespace, value, filter,
            limit, ttl); ``langgraph.store.base.InvalidNamespaceError`` on labels LangGraph
            forbids (empty, with ``.``).

    """

    supports_ttl: bool = True

    def __init__(self, store: MemoryStore, *, fields: Sequence[str] = ("$",)) -> None:
        self.store = store
        self.fields = tuple(fields)

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run operations in order; results line up with ``ops`` (``None`` for puts).

        Implements ``langgraph.store.base.BaseStore.batch``; the inherited ``get``, ``put``,
        ``delete``, ``search`` and ``list_namespaces`` build the ops and call it.
        """
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async form of :meth:`batch`, run in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        validate_op_namespace(op)
        if isinstance(op, GetOp):
            found = self.store.get(op.namespace, op.key)
            return _item(found) if found is not None else None
        if isinstance(op, PutOp):
            if op.value is None:
                self.store.delete(op.namespace, op.key)
            else:
                fields = op.index or (self.fields if op.index is None else ("$",))
                value = encode(op.value, fields)
                self.store.put(op.namespace, op.key, value, ttl=_ttl_seconds(op.ttl))
            return None
        if isinstance(op, SearchOp):
            found = self.store.search(
                op.namespace_prefix,
                query=op.query,
                filter=translate_filter(op.filter),
                limit=op.limit,
                offset=op.offset,
            )
            return [_search_item(item) for item in found]
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise InvalidArgumentError(f"unknown LangGraph store operation {type(op).__name__}")

    def _list_namespaces(self, op: ListNamespacesOp) -> list[Namespace]:
        conditions = list(op.match_conditions or ())
        if not any("*" in c.path for c in conditions):
            prefix = next((c.path for c in conditions if c.match_type == "prefix"), None)
            suffix = next((c.path for c in conditions if c.match_type == "suffix"), None)
            return self.store.list_namespaces(
                prefix=prefix,
                suffix=suffix,
                max_depth=op.max_depth,
                limit=op.limit,
                offset=op.offset,
            )
        literal: list[str] = []
        for condition in conditions:
            if condition.match_type == "prefix":
                for segment in condition.path:
                    if segment == "*":
                        break
                    literal.append(segment)
                break
        found: list[Namespace] = []
        while page := self.store.list_namespaces(
            prefix=tuple(literal), limit=_PAGE, offset=len(found)
        ):
            found.extend(page)
        kept = {
            ns[: op.max_depth] if op.max_depth else ns
            for ns in found
            if all(_matches(ns, c) for c in conditions)
        }
        return sorted(kept)[op.offset : op.offset + op.limit]
