"""A LangGraph ``BaseStore`` backed by memvault: persistent ``runtime.store`` for agents."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import threading
import time
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any, cast

from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

from langchain_memvault.graph_values import (
    NOINDEX,
    TTL,
    decode,
    encode,
    split_as_of,
    translate_filter,
)
from memvault import Embedder, EmbedderMismatchError, InvalidArgumentError, MemoryItem, MemoryStore
from memvault.embedding import as_embedder
from memvault.errors import shown
from memvault.items import MAX_TTL
from memvault.model import Namespace
from memvault.namespace import validate_key, validate_namespace
from memvault.store import MAX_COUNT

logger = logging.getLogger(__name__)

_PAGE = 1000
DEFAULT_SWEEP_MINUTES = 5.0
"""Minutes between sweeps when neither the call nor ``ttl_config`` says (as LangGraph's stores)."""
REFRESH_STEP = 1.0
"""Seconds: a read refreshes a TTL only if that moves the expiry by at least this much, or by 1%
of the TTL if that is less. A refresh rewrites the item (see :class:`MemvaultLangGraphStore`), so
reads in quick succession rewrite it once; ``SqliteStore`` refreshes to whole seconds too."""
_TTL_KEYS = ("default_ttl", "refresh_on_read", "sweep_interval_minutes", "omit_expired")
_INDEX_KEYS = ("dims", "embed", "fields")
_WritePlan = list[tuple[Namespace, str, dict[str, Any] | None, float | None]]


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


def _minutes(value: Any, field: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 < value * 60 < MAX_TTL
    ):
        raise InvalidArgumentError(
            f"{field} must be a positive number of MINUTES (LangGraph's unit) below "
            f"{MAX_TTL / 60:.0e}, or None, got {shown(value)}"
        )
    return float(value)


def _count(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise InvalidArgumentError(
            f"{field} must be an int from 0 to {MAX_COUNT}, got {shown(value)}"
        )
    return value


def _matches(namespace: Namespace, condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(p == "*" or p == s for s, p in zip(part, path, strict=True))


def _same_embedder(embed: Any, embedder: Embedder) -> bool:
    """Whether ``embed`` (an ``IndexConfig`` ``embed``) is the model of ``embedder``.

    Compared as memvault compares embedders when a store is reopened: by the name and dimension
    it records (:func:`memvault.embedding.as_embedder` names an object without a ``name`` and
    probes its dimension with one call).
    """
    if embed is embedder:
        return True
    if isinstance(embed, str):
        return embed == embedder.name
    if asyncio.iscoroutinefunction(embed):
        return False
    try:
        adapted = as_embedder(embed)
        return (adapted.name, int(adapted.dim)) == (embedder.name, int(embedder.dim))
    except Exception:  # an embedder that fails to embed is not the store's, which works
        return False


def _check_index(index: Any, embedder: Embedder) -> tuple[str, ...]:
    """Validate a LangGraph ``IndexConfig`` against the store's embedder; return its fields."""
    if index is None:
        return ("$",)
    if not isinstance(index, Mapping):
        raise InvalidArgumentError(
            "index must be a LangGraph IndexConfig dict such as {'fields': ['text']}, got "
            f"{type(index).__name__}"
        )
    unknown = sorted(set(index) - set(_INDEX_KEYS))
    if unknown:
        raise InvalidArgumentError(
            f"index has unknown keys {unknown}; a memvault LangGraph store takes "
            f"{', '.join(_INDEX_KEYS)}"
        )
    dims, embed = index.get("dims"), index.get("embed")
    if dims is not None and dims != embedder.dim:
        raise EmbedderMismatchError(
            f"index['dims'] is {dims!r} but the memvault store's embedder {embedder.name!r} "
            f"gives {embedder.dim} dimensions; leave 'dims' out or give {embedder.dim}"
        )
    if embed is not None and not _same_embedder(embed, embedder):
        raise EmbedderMismatchError(
            f"index['embed'] ({type(embed).__name__}) is not the memvault store's embedder "
            f"{embedder.name!r}: a memvault store embeds everything with the one embedder it "
            "was made with. Leave 'embed' out (the store's embedder is used), or make the "
            "store with that model: MemoryStore(path, embedder=your_embeddings)"
        )
    fields = index.get("fields")
    if fields is None:
        return ("$",)
    if isinstance(fields, str) or not all(isinstance(f, str) and f for f in fields):
        raise InvalidArgumentError(
            f"index['fields'] must be a list of JSON paths such as ['text', 'meta.title'], "
            f"got {fields!r}"
        )
    return tuple(fields)


def _check_ttl_config(config: Any, store: MemoryStore) -> TTLConfig | None:
    """Validate a LangGraph ``TTLConfig``; without one, the memvault store's ``ttl`` applies."""
    if config is None:
        return None if store.ttl is None else TTLConfig(default_ttl=store.ttl / 60)
    if not isinstance(config, Mapping):
        raise InvalidArgumentError(
            "ttl must be a LangGraph TTLConfig dict such as {'default_ttl': 60, "
            f"'refresh_on_read': True}} (minutes), got {config!r}; a default in seconds goes "
            "to MemoryStore(ttl=...)"
        )
    unknown = sorted(set(config) - set(_TTL_KEYS))
    if unknown:
        raise InvalidArgumentError(
            f"ttl has unknown keys {unknown}; LangGraph's TTLConfig takes {', '.join(_TTL_KEYS)}"
        )
    for field in ("default_ttl", "sweep_interval_minutes"):
        if config.get(field) is not None:
            _minutes(config[field], f"ttl[{field!r}]")
    if not isinstance(config.get("refresh_on_read", True), bool):
        raise InvalidArgumentError(
            f"ttl['refresh_on_read'] must be True or False, got {config['refresh_on_read']!r}"
        )
    if config.get("omit_expired", True) is not True:
        raise InvalidArgumentError(
            "ttl['omit_expired'] must be True or left out: memvault never returns expired items"
        )
    return cast(TTLConfig, dict(config))  # every key is one of TTLConfig's (checked above)


class MemvaultLangGraphStore(BaseStore):
    """LangGraph's ``BaseStore`` over a memvault store: persistent, searchable agent memory.

    Pass it as ``create_agent(..., store=...)`` or ``graph.compile(store=...)``; nodes, tools and
    middleware reach it as ``runtime.store`` and use LangGraph's API (``put``, ``get``,
    ``search``, ``delete``, ``list_namespaces``, ``batch`` and async twins) as on LangGraph's own
    stores: ``InMemoryStore`` for values, indexing, search, filters, namespaces and batches, and
    ``SqliteStore`` for TTLs (both tested side by side with this store). How values are kept (any
    JSON dict, exact round trip, filters on nested fields) is described in
    :mod:`langchain_memvault.graph_values`.

    As LangGraph's stores do:

    - ``index`` is LangGraph's ``IndexConfig``. Its ``fields`` (JSON paths, default ``["$"]``,
      the whole value) choose the text embedded; ``put(..., index=[...])`` overrides them per
      item, and ``index=False``, ``index=[]`` or fields holding no text index nothing: such
      items still come back from searches, without a query as any other, and with a query
      after every ranked item, with score ``None``.
    - ``ttl`` is LangGraph's ``TTLConfig``, in minutes: ``default_ttl`` applies to ``put``
      without ``ttl``; ``put(ttl=None)`` never expires; ``get`` and ``search`` refresh the TTL
      of what they return (``refresh_ttl``, default ``refresh_on_read``, itself default
      ``True``); :meth:`start_ttl_sweeper` deletes expired items every
      ``sweep_interval_minutes`` (default 5), :meth:`sweep_ttl` once.
    - A batch reads before it writes: a ``GetOp`` or ``SearchOp`` sees the store as it was
      before the batch's puts, and of two puts on one key the last wins.
    - ``search(limit=0)`` gives ``[]``; ``list_namespaces(max_depth=0)`` gives ``[()]`` when
      any namespace matches.

    Where memvault differs, on purpose:

    - A memvault store has one embedder, so every store searches semantically: ``index`` only
      chooses fields, and an ``embed`` or ``dims`` other than the memvault store's is refused
      (:class:`memvault.EmbedderMismatchError`): embeddings of two models cannot be compared.
      Several fields are joined into one embedded text (``InMemoryStore`` embeds each and keeps
      the best score). ``"$"`` in ``put(index=[...])`` is the whole value, as in ``fields``.
    - Query scores are the memvault store's ``search_mode``: cosine similarity, as LangGraph's,
      with ``MemoryStore(..., search_mode="dense")``; the default ``"hybrid"`` ranks by fused,
      normalised BM25 and embedding scores in ``[0, 1]`` (better recall on conversation memory).
    - Without a query, the most recently updated come first (as ``PostgresStore``), unranked
      items after a query too; paging past the ranked items pages through the unranked ones
      (``InMemoryStore`` repeats the first of them on every such page).
    - Overwriting keeps ``created_at``; ``list_namespaces`` lists namespaces holding live items
      (``InMemoryStore`` keeps emptied namespaces, and those merely read, too).
    - A filter on a field an item lacks does not match (with ``$ne`` too), ``$gt``-style
      operators never crash on missing or non-numeric fields, and list or ``None`` operands
      are refused with :class:`memvault.errors.InvalidFilterError`.
    - Expired items are never returned, even before a sweep (``omit_expired=True``, the only
      setting); ``SqliteStore`` returns them until swept and a read can revive them.
      ``refresh_ttl=True`` refreshes whatever ``refresh_on_read`` says (as ``PostgresStore``;
      ``SqliteStore`` refreshes only when ``refresh_on_read`` is set). A TTL applies from
      the write or refreshing read, to about a second (see :data:`REFRESH_STEP`).
    - A refresh rewrites the item (the same value and times, validity included), which
      re-embeds its text: the memvault store has no way yet to move only an expiry. An item
      not indexed embeds its key.
    - Bad input (``ttl <= 0``, a negative ``limit``, ``offset`` or ``max_depth``, a value that
      is not JSON) raises a typed :class:`memvault.MemvaultError` naming the field; expired
      items are swept from the whole memvault store, not only from what LangGraph wrote.
    - Items memvault wrote itself (tools, middleware) read back as their plain memvault values
      and keep memvault's TTL rules (no refresh on read).

    Time, memvault's extensions of LangGraph's API:

    - ``search`` returns what holds now: an item closed by
      :meth:`memvault.MemoryStore.supersede` (the ``remember`` tool's ``replaces`` and the
      reconciler close items so) is left out. The reserved filter key ``"$as_of"``
      (:data:`langchain_memvault.graph_values.AS_OF`: Unix seconds, a ``datetime``, naive
      meaning UTC, or an ISO 8601 string such as ``"2023-04-15"``) asks what held at that
      time instead; it passes through LangGraph's own
      ``search(namespace, query=..., filter={"$as_of": datetime(2023, 4, 15)})``, ``SearchOp``
      and ``runtime.store``, and combines with the other filter keys.
    - A LangGraph ``Item`` has no field for validity, so ``value`` stays as stored (an item
      memvault closed has ``"superseded_by"``, the key of its replacement, which has
      ``"supersedes"``), and ``get`` returns an item by key whether or not it still holds.
      ``graph_store.store.get(namespace, key)`` gives the :class:`memvault.MemoryItem` with
      ``valid_from`` and ``valid_to``.
    - ``delete(namespace, key, erase=True)`` also removes the item's text from its history and
      from the store's files (:meth:`memvault.MemoryStore.delete`); a ``PutOp`` has no room for
      it, so a batch deletes as LangGraph's stores do. The ``forget`` tool erases a memory
      with what it was derived from (``forget(memory, erase=True)``).

    Args:
        store: The :class:`memvault.MemoryStore` that holds the items (and embeds them).
        index: LangGraph's ``IndexConfig``: ``fields`` (JSON paths embedded, default
            ``["$"]``); ``dims`` and ``embed`` may be given only as the memvault store's own.
        ttl: LangGraph's ``TTLConfig`` (``default_ttl`` and ``sweep_interval_minutes`` in
            minutes, ``refresh_on_read``); default: the memvault store's ``ttl`` (seconds)
            converted to ``default_ttl``, else no TTL.

    Attributes:
        ttl_config: The ``TTLConfig`` in force (``None``: none).
        index_config: ``{"dims": ..., "fields": [...]}`` of the memvault store's embedder.

    Raises:
        memvault.InvalidArgumentError: If ``store`` is not a ``MemoryStore`` (e.g. a path), or
            ``index`` or ``ttl`` has an unknown key or a bad value.
        memvault.EmbedderMismatchError: If ``index`` names another embedder or dimension.
        memvault.MemvaultError: From the operations, on bad input (namespace, key, value,
            filter, limit, ttl); ``langgraph.store.base.InvalidNamespaceError`` on labels
            LangGraph forbids (empty, with ``.``).

    Example:
        >>> from memvault import MemoryStore  # doctest: +SKIP
        >>> graph_store = MemvaultLangGraphStore(  # doctest: +SKIP
        ...     MemoryStore("./memories"), index={"fields": ["text"]}, ttl={"default_ttl": 60}
        ... )
    """

    supports_ttl: bool = True

    def __init__(
        self,
        store: MemoryStore,
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        if not isinstance(store, MemoryStore):
            raise InvalidArgumentError(
                f"MemvaultLangGraphStore takes a memvault.MemoryStore, got "
                f"{type(store).__name__} {store!r:.60}; make one first: "
                "MemvaultLangGraphStore(MemoryStore('./memories')) (an AgentMemory's is .store)"
            )
        self.store = store
        self.fields = _check_index(index, store.embedder)
        self.index_config = IndexConfig(dims=int(store.embedder.dim), fields=list(self.fields))
        self.ttl_config = _check_ttl_config(ttl, store)
        self._sweeper: threading.Thread | None = None
        self._stop_sweeper = threading.Event()

    # -- batches --------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run operations: every read first, on the store as it was, then the writes.

        Implements ``langgraph.store.base.BaseStore.batch``; the inherited ``get``, ``put``,
        ``delete``, ``search`` and ``list_namespaces`` build the ops and call it.

        Args:
            ops: ``GetOp``, ``SearchOp``, ``ListNamespacesOp`` and ``PutOp`` (``value=None``
                deletes), in any order.

        Returns:
            One result per op, in order (``None`` for puts).

        Raises:
            memvault.MemvaultError, langgraph.store.base.InvalidNamespaceError: On bad input;
                bad writes are found before anything is read or written.
        """
        if not isinstance(ops, Iterable):
            raise InvalidArgumentError(
                f"ops must be a list of LangGraph store operations, got {type(ops).__name__}"
            )
        ops = list(ops)
        for op in ops:
            if not isinstance(op, (GetOp, PutOp, SearchOp, ListNamespacesOp)):
                raise InvalidArgumentError(
                    f"unknown LangGraph store operation {type(op).__name__}; use GetOp, PutOp, "
                    "SearchOp or ListNamespacesOp"
                )
            validate_op_namespace(op)
        writes = self._plan_writes([op for op in ops if isinstance(op, PutOp)])
        results = [None if isinstance(op, PutOp) else self._read(op) for op in ops]
        self._write(writes)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async form of :meth:`batch`, run in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

    def delete(self, namespace: tuple[str, ...], key: str, *, erase: bool = False) -> None:
        """Delete an item (``BaseStore.delete``); with ``erase=True``, its text everywhere.

        Args:
            namespace: The item's namespace.
            key: Its key.
            erase: ``True`` also removes the text from the item's history and from the
                store's files, for privacy (:meth:`memvault.MemoryStore.delete`): its history
                keeps the events, without values, and an ``"erase"`` entry. Default ``False``:
                a delete as LangGraph's, the history keeping the text.

        Raises:
            langgraph.store.base.InvalidNamespaceError: On labels LangGraph forbids.
            memvault.MemvaultError: On a bad namespace or key, or an ``erase`` that is not a
                bool (:class:`memvault.InvalidArgumentError`).
        """
        if erase is False:
            super().delete(namespace, key)
            return
        validate_op_namespace(PutOp(namespace, str(key), None))
        self.store.delete(namespace, str(key), erase=erase)

    async def adelete(self, namespace: tuple[str, ...], key: str, *, erase: bool = False) -> None:
        """Async form of :meth:`delete`: the same arguments and errors."""
        if erase is False:
            await super().adelete(namespace, key)
            return
        await asyncio.to_thread(self.delete, namespace, key, erase=erase)

    def _read(self, op: GetOp | SearchOp | ListNamespacesOp) -> Result:
        if isinstance(op, GetOp):
            found = self.store.get(op.namespace, op.key)
            if found is None:
                return None
            if op.refresh_ttl:
                self._refresh([found])
            return _item(found)
        if isinstance(op, SearchOp):
            items = self._search(op)
            if op.refresh_ttl:
                self._refresh(items)
            return [_search_item(item) for item in items]
        return self._list_namespaces(op)

    # -- writes ---------------------------------------------------------------------------

    def _plan_writes(self, puts: list[PutOp]) -> _WritePlan:
        """Validate and encode puts (the last per key wins): ``(ns, key, value, ttl seconds)``."""
        last = {(validate_namespace(op.namespace), validate_key(op.key)): op for op in puts}
        plan: _WritePlan = []
        for (namespace, key), op in last.items():
            if op.value is None:
                plan.append((namespace, key, None, None))
                continue
            if op.index not in (None, False) and not isinstance(op.index, (list, tuple)):
                raise InvalidArgumentError(
                    f"index must be None, False or a list of JSON paths, got {op.index!r}"
                )
            fields = self.fields if op.index is None else op.index or ()
            ttl: float | None | NotProvided = op.ttl  # PutOp's type leaves out NOT_PROVIDED
            if ttl is NOT_PROVIDED:  # a PutOp made by hand: as BaseStore.put does
                ttl = (self.ttl_config or {}).get("default_ttl")
            minutes = None if ttl is None else _minutes(ttl, "ttl")
            value = encode(op.value, fields, key=key, ttl=minutes)
            plan.append((namespace, key, value, None if minutes is None else minutes * 60))
        return plan

    def _write(self, plan: _WritePlan) -> None:
        """Delete and upsert; upserts go one ``put_many`` per namespace and TTL."""
        groups: dict[tuple[Namespace, float | None], list[tuple[str, dict[str, Any]]]] = {}
        for namespace, key, value, seconds in plan:
            if value is None:
                self.store.delete(namespace, key)
            else:
                groups.setdefault((namespace, seconds), []).append((key, value))
        for (namespace, seconds), items in groups.items():
            self.store.put_many(namespace, items, ttl=seconds)

    def _refresh(self, items: Iterable[MemoryItem]) -> None:
        """Restart the TTL of items LangGraph wrote with one, keeping value and times."""
        now = time.time()
        for item in items:
            minutes = item.value.get(TTL)
            if item.expires_at is None or isinstance(minutes, bool):
                continue
            if not isinstance(minutes, (int, float)) or minutes <= 0:
                continue
            seconds = minutes * 60
            if now + seconds - item.expires_at < min(REFRESH_STEP, seconds / 100):
                continue
            self.store.put_many(
                item.namespace,
                [(item.key, item.value)],
                ttl=seconds,
                timestamp=item.updated_at,
                valid_from=item.valid_from,
                valid_to=item.valid_to,
            )

    # -- reads ----------------------------------------------------------------------------

    def _search(self, op: SearchOp) -> list[MemoryItem]:
        """Items of one search: ranked ones first, then those not indexed (score ``None``)."""
        rest, as_of = split_as_of(op.filter)
        prefix, filter, query = op.namespace_prefix, translate_filter(rest), op.query
        limit, offset = _count(op.limit, "limit"), _count(op.offset, "offset")
        if limit == 0:
            validate_namespace(prefix, allow_empty=True)
            return []
        if not (isinstance(query, str) and query.strip()):
            return self.store.search(
                prefix, query=query, filter=filter, limit=limit, offset=offset, as_of=as_of
            )
        wanted = offset + limit
        fetch = min(wanted, MAX_COUNT)
        while True:  # fetch until `wanted` ranked items, or all there are
            hits = self.store.search(prefix, query=query, filter=filter, limit=fetch, as_of=as_of)
            ranked = [hit for hit in hits if not hit.value.get(NOINDEX)]
            if len(ranked) >= wanted or len(hits) < fetch or fetch == MAX_COUNT:
                break
            fetch = min(fetch * 4, MAX_COUNT)
        page = ranked[offset:wanted]
        if len(ranked) < wanted:
            page += self.store.search(
                prefix,
                filter={**(filter or {}), NOINDEX: True},
                limit=limit - len(page),
                offset=max(0, offset - len(ranked)),
                as_of=as_of,
            )
        return page

    def _list_namespaces(self, op: ListNamespacesOp) -> list[Namespace]:
        limit, offset = _count(op.limit, "limit"), _count(op.offset, "offset")
        if op.max_depth is not None and _count(op.max_depth, "max_depth") == 0:
            found = self._list_namespaces(op._replace(max_depth=None, limit=1, offset=0))
            root: list[Namespace] = [()] if found else []
            return root[offset : offset + limit]
        if limit == 0:
            return []
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
        found = []
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

    # -- TTL sweeping ---------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Delete expired items from the memvault store now (``MemoryStore.cleanup``).

        Returns:
            How many items were deleted (those memvault wrote itself included).
        """
        return self.store.cleanup()

    def start_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> concurrent.futures.Future[None]:
        """Sweep expired items in a daemon thread, as LangGraph's ``SqliteStore`` does.

        Does nothing without a ``ttl_config``; a second call while the sweeper runs starts no
        other. Cancelling a returned future stops the sweeper.

        Args:
            sweep_interval_minutes: Minutes between sweeps; default ``ttl_config``'s
                ``sweep_interval_minutes``, else :data:`DEFAULT_SWEEP_MINUTES`.

        Returns:
            A future that is done when the sweeper stops (see :meth:`stop_ttl_sweeper`).

        Raises:
            memvault.InvalidArgumentError: If the interval is not a positive number.
        """
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        future.add_done_callback(lambda f: self._stop_sweeper.set() if f.cancelled() else None)
        if not self.ttl_config:
            future.set_result(None)
            return future
        if self._sweeper is not None and self._sweeper.is_alive():
            return future
        minutes = _minutes(
            sweep_interval_minutes
            or self.ttl_config.get("sweep_interval_minutes")
            or DEFAULT_SWEEP_MINUTES,
            "sweep_interval_minutes",
        )
        self._stop_sweeper.clear()

        def sweep_until_stopped() -> None:
            while not self._stop_sweeper.wait(minutes * 60):
                try:
                    if swept := self.sweep_ttl():
                        logger.info("memvault TTL sweep deleted %d expired items", swept)
                except Exception:
                    logger.exception("memvault TTL sweep failed")
            with contextlib.suppress(concurrent.futures.InvalidStateError):
                future.set_result(None)

        self._sweeper = threading.Thread(
            target=sweep_until_stopped, daemon=True, name="memvault-ttl-sweeper"
        )
        self._sweeper.start()
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread if it runs.

        Args:
            timeout: Seconds to wait for it to stop; ``None`` waits as long as it takes.

        Returns:
            ``True`` if it stopped or was not running, ``False`` if ``timeout`` ran out.
        """
        if self._sweeper is None or not self._sweeper.is_alive():
            return True
        self._stop_sweeper.set()
        self._sweeper.join(timeout)
        if self._sweeper.is_alive():
            return False
        self._sweeper = None
        return True
