"""The memory store: one public surface over any backend, with async twins of every operation.

:class:`MemoryStore` validates every input, embeds, applies TTLs, picks how a query ranks and
turns records into :class:`~memvault.MemoryItem`; a backend
(:class:`~memvault.backends.base.Backend`) holds the records. See ``docs/architecture.md``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from memvault.arguments import (
    DEFAULT_SEARCH_MODE,
    MAX_COUNT,
    NOT_GIVEN,
    check_count,
    check_mode,
    check_query,
)
from memvault.backends.base import Backend
from memvault.embedding import DEFAULT_EMBEDDER, Embedder, resolve_embedder
from memvault.errors import (
    ConflictError,
    EmbedderError,
    EmbedderMismatchError,
    InvalidArgumentError,
    ItemNotFoundError,
    MemvaultError,
    StoreClosedError,
    shown,
)
from memvault.filters import Filter, normalize_filter
from memvault.history import validate_source
from memvault.items import (
    MAX_SECONDS,
    MemoryItem,
    ScoreType,
    validate_items,
    validate_moment,
    validate_time,
    validate_ttl,
    validate_validity,
)
from memvault.lexical import indexed_text
from memvault.model import (
    SEARCH_MODES,
    Change,
    HistoryEntry,
    Namespace,
    Provenance,
    Record,
    SearchMode,
    SearchRequest,
    Validity,
    Vector,
    record_id,
)
from memvault.namespace import validate_key, validate_namespace
from memvault.periods import DATE_SLACK, named_periods
from memvault.provenance import validate_provenance
from memvault.rendering import Memories
from memvault.transfer import read_jsonl, write_jsonl
from memvault.twins import async_twin

__all__ = [
    "DEFAULT_SEARCH_MODE",
    "MAX_COUNT",
    "MAX_SECONDS",
    "NOT_GIVEN",
    "SEARCH_MODES",
    "FINGERPRINT_PROBE",
    "MemoryStore",
    "StoreStats",
]

FINGERPRINT_PROBE = "memvault embedder fingerprint: the quick brown fox jumps over the lazy dog"
"""The text whose embedding identifies an embedder's output (see :class:`MemoryStore`)."""
FINGERPRINT_MIN_COSINE = 0.999
"""Cosine similarity a reopening embedder's probe embedding must reach against the recorded
one; far above what two different models give, far below float noise between runs."""


_EMBEDDINGS_CHUNK = 500
"""Ids an export reads the embeddings of at a time."""

_SCORE_TYPES: dict[SearchMode, ScoreType] = {
    "hybrid": "hybrid",
    "dense": "cosine",
    "lexical": "bm25",
}
"""What a search's ``score`` is, by mode (:attr:`MemoryItem.score_type`)."""


@dataclass(frozen=True)
class StoreStats:
    """What a store holds, as :meth:`MemoryStore.stats` counts it.

    Attributes:
        memories: Live memories in the store.
        namespaces: Live memories per namespace, each counted in its own namespace only,
            e.g. ``{("users", "alice"): 12}``; sorted by namespace.
        info: The store's recorded settings: ``embedder`` (name), ``dim`` (its dimension)
            and ``fingerprint``.
    """

    memories: int
    namespaces: dict[Namespace, int]
    info: dict[str, Any]


def _cosine(left: Any, right: Any) -> float:
    """The cosine similarity of two vectors (``0.0`` if one is all zeros)."""
    a, b = np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
    return float(np.dot(a, b)) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)


def _same_version(stored: Record, new: Record) -> bool:
    """Whether writing ``new`` over ``stored`` would change nothing a reader sees.

    The same value, ``updated_at``, ``expires_at``, ``valid_from``, ``valid_to`` and
    ``provenance`` (``created_at`` of a live version is kept by every write).
    """
    return (
        stored.value,
        stored.updated_at,
        stored.expires_at,
        stored.valid_from,
        stored.valid_to,
        stored.provenance,
    ) == (new.value, new.updated_at, new.expires_at, new.valid_from, new.valid_to, new.provenance)


def _keeping(new: Record, old: Record | None, now: float, keep: tuple[bool, bool]) -> Record:
    """``new`` with the validity of ``old`` where ``keep`` says, if ``old`` is live at ``now``.

    Raises:
        InvalidArgumentError: If the span is then empty (a given ``valid_to`` not after the
            kept ``valid_from``).
    """
    kept = new
    if old is not None and old.live(now):
        keep_from, keep_to = keep
        kept = replace(
            new,
            valid_from=old.valid_from if keep_from else new.valid_from,
            valid_to=old.valid_to if keep_to else new.valid_to,
        )
    validate_validity(kept.valid_from, kept.valid_to)
    return kept


def _merging(event: Any) -> bool:
    """Whether a write's ``event`` asks for ``"merge"`` (``None``: add or update)."""
    if event is None or event == "merge":
        return event == "merge"
    raise InvalidArgumentError(
        f"event must be None (add or update, as found) or 'merge', got {event!r:.80}"
    )


class MemoryStore:
    """A persistent, namespaced memory store with semantic search.

    Items live under namespaces (tuples of strings such as ``("users", "alice")``) and keys.
    Each value is a dict whose ``"text"`` is embedded; the other entries are metadata that
    filters can test. Search and list cover a namespace and everything below it.

    Every operation has an async twin with an ``a`` prefix (``aput``, ``asearch``, ...) that
    runs in a worker thread; the sync forms work inside a running event loop too (Jupyter).

    By default the store is a folder (:class:`~memvault.ChromaBackend`): a SQLite record file,
    the system of record, with a BM25 index for hybrid and lexical search, and an embedded
    Chroma collection as the vector index of large scopes. Any number of processes may open
    one folder; each sees the others' writes once they return. A write is all or nothing.

    The store records its embedder's name, dimension and fingerprint (the embedding of
    :data:`FINGERPRINT_PROBE`) and refuses an embedder whose name or dimension differs when it
    opens, and one whose output differs at its first embedding (a write or a query), before
    anything is written: opening a store to read (get, list, history, export, a lexical
    search) never loads the model.

    Args:
        path: Folder of the default backend; defaults to ``$MEMVAULT_PATH``, else the per-user
            data folder (see :func:`memvault.backends.chroma.default_path`). Not allowed
            together with ``backend``.
        embedder: An embedder object or string (see :func:`memvault.embedding.resolve_embedder`):
            ``"minilm"`` (default; offline all-MiniLM-L6-v2), ``"<provider>:<model>"`` through
            LangChain's ``init_embeddings`` (e.g. ``"openai:text-embedding-3-small"``), or a
            LangChain, LlamaIndex or Chroma embedder.
        backend: A :class:`~memvault.backends.base.Backend`, e.g.
            :class:`~memvault.InMemoryBackend` or :class:`~memvault.ChromaServerBackend`;
            default the embedded :class:`~memvault.ChromaBackend` at ``path``.
        ttl: Default time to live of new items in seconds; ``None`` (default) never expires.
        search_mode: Default ``mode`` of :meth:`search`: :data:`DEFAULT_SEARCH_MODE`
            (``"hybrid"``) where the backend serves it, else ``"dense"`` (a Chroma server).
            ``"dense"`` gives cosine-similarity scores, as LangGraph's stores do.
        clock: Returns the current time in Unix seconds (default :func:`time.time`); TTLs,
            ``updated_at`` and expiry follow it (tests pass a fake one).

    Raises:
        EmbedderMismatchError: If the store was written with an embedder of another name or
            dimension (of another output: raised by the first write or query that embeds).
        EmbedderError: If the embedder fails or returns vectors of the wrong shape.
        InvalidArgumentError: On a bad ``ttl``, ``search_mode``, a ``path`` that is a file or
            cannot be created (``/etc/passwd/store``, ``/proc/x``), both ``path`` and
            ``backend``, a ``backend`` that is a string or a path, or an unknown embedder.
        EmbedderUnavailableError: If an embedder string needs a package that is not installed.
        StoreBusyError: If another process holds the store folder past the lock timeout.

    Example:
        >>> store = MemoryStore("/tmp/memories")  # doctest: +SKIP
        >>> store.put(("users", "alice"), "tea", {"text": "Alice drinks tea"})  # doctest: +SKIP
        >>> store.search(("users",), query="what does alice drink?")[0].key  # doctest: +SKIP
        'tea'
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        embedder: Any = DEFAULT_EMBEDDER,
        backend: Backend | None = None,
        ttl: float | None = None,
        search_mode: SearchMode | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if path is not None and backend is not None:
            raise InvalidArgumentError(
                "give either path (for the default Chroma backend) or backend, not both"
            )
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise InvalidArgumentError(
                f"path must be a folder as a str or pathlib.Path, got {type(path).__name__} "
                f"{str(path)[:80]!r}"
            )
        if not callable(clock):
            raise InvalidArgumentError(
                f"clock must be a callable giving Unix seconds, got {clock!r:.80}"
            )
        self.ttl = validate_ttl(ttl)
        self._clock = clock
        self.embedder: Embedder = resolve_embedder(embedder)
        if search_mode is not None:
            check_mode(search_mode)
        if isinstance(backend, (str, bytes, os.PathLike)):
            raise InvalidArgumentError(
                f"backend must be a Backend such as PostgresBackend(dsn) or InMemoryBackend(), "
                f"got {type(backend).__name__} {str(backend)[:80]!r}; for a folder give path="
            )
        if backend is not None and not isinstance(backend, Backend):
            raise InvalidArgumentError(
                f"backend must subclass memvault.backends.Backend, got "
                f"{type(backend).__name__}: a backend written against the protocol of memvault "
                f"0.1 works once its class declares it, `class {type(backend).__name__}"
                f"(Backend)` (from memvault.backends import Backend), which also gives it "
                "dense_records, lexical and both_rankings by default"
            )
        if backend is None:
            from memvault.backends.chroma import ChromaBackend

            backend = ChromaBackend(path)
        self._backend: Backend | None = backend
        try:
            served = backend.search_modes
            self.default_mode: SearchMode = check_mode(
                search_mode
                if search_mode is not None
                else (DEFAULT_SEARCH_MODE if DEFAULT_SEARCH_MODE in served else "dense"),
                served,
            )
            self._record_or_check_embedder()
        except BaseException:
            backend.close()
            raise

    @property
    def clock(self) -> Callable[[], float]:
        """The store's clock: returns the current time in Unix seconds (``clock=`` given)."""
        return self._clock

    @property
    def backend(self) -> Backend:
        """The backend holding the records.

        Raises:
            StoreClosedError: After :meth:`close`.
        """
        if self._backend is None:
            raise StoreClosedError("this MemoryStore was closed; open a new one to use it")
        return self._backend

    def _record_or_check_embedder(self) -> None:
        """Record the embedder (name, dim, fingerprint) in a new store, else check it.

        Name and dim are checked here; the recorded fingerprint at the first embedding
        (:meth:`_check_fingerprint`), so that opening a store to read loads no model. A store
        recorded before fingerprints were kept gets this embedder's.

        Raises:
            EmbedderMismatchError: If the recorded name or dim differs.
        """
        name, dim = self.embedder.name, int(self.embedder.dim)
        recorded = self.backend.get_info()
        if recorded is not None and (recorded.get("embedder"), recorded.get("dim")) != (name, dim):
            raise EmbedderMismatchError(
                f"this store was written with embedder {recorded.get('embedder')!r} "
                f"(dim {recorded.get('dim')}), but {name!r} (dim {dim}) "
                "was given; open it with the same embedder, or export it and import into a new "
                "store to re-embed"
            )
        fingerprint = None if recorded is None else recorded.get("fingerprint")
        if fingerprint is None:  # a new store, or one written before fingerprints were kept
            probe = self._embedded([FINGERPRINT_PROBE])[0]
            self.backend.set_info(
                {"embedder": name, "dim": dim, "fingerprint": [round(float(x), 5) for x in probe]}
            )
        self._unchecked_fingerprint: list[float] | None = fingerprint

    def _check_fingerprint(self) -> None:
        """Compare the recorded fingerprint with this embedder's, once, before it embeds.

        Raises:
            EmbedderMismatchError: If the embedder's probe embedding is not the recorded one
                (cosine similarity below :data:`FINGERPRINT_MIN_COSINE`); nothing was written.
        """
        fingerprint = self._unchecked_fingerprint
        if fingerprint is None:
            return
        probe = self._embedded([FINGERPRINT_PROBE])[0]
        similarity = _cosine(fingerprint, probe)
        if not similarity >= FINGERPRINT_MIN_COSINE:
            raise EmbedderMismatchError(
                f"the embedder given ({self.embedder.name!r}) embeds differently from the one "
                f"this store was written with, though the names agree (probe cosine similarity "
                f"{similarity:.3f} < {FINGERPRINT_MIN_COSINE}); open it with the same model, or "
                "give your embedder a name of its own and import an export into a new store"
            )
        self._unchecked_fingerprint = None

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Embed texts as rows of shape ``(len(texts), dim)``, checked, the fingerprint first."""
        self._check_fingerprint()
        return self._embedded(texts)

    def _embedded(self, texts: list[str]) -> np.ndarray:
        """Embed texts as rows of shape ``(len(texts), dim)``, checked."""
        return self._checked(self._call(self.embedder.embed_documents, texts), len(texts))

    def _embed_query(self, query: str) -> np.ndarray:
        """Embed a query as shape ``(dim,)``, checked, the fingerprint first."""
        self._check_fingerprint()
        return self._checked([self._call(self.embedder.embed_query, query)], 1)[0]

    def _call(self, method: Callable[[Any], Any], argument: Any) -> Any:
        """Call an embedder method; its own errors leave as :class:`EmbedderError`."""
        try:
            return method(argument)
        except MemvaultError:
            raise
        except Exception as error:
            raise EmbedderError(
                f"the embedder {self.embedder.name!r} failed: {type(error).__name__}: {error}"
            ) from error

    def _checked(self, vectors: Any, count: int) -> np.ndarray:
        dim = int(self.embedder.dim)
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError) as error:
            raise EmbedderError(
                f"the embedder {self.embedder.name!r} returned something that is not a list of "
                f"float vectors ({error}); it must return shape (n, {dim})"
            ) from None
        if matrix.shape != (count, dim):
            raise EmbedderError(
                f"the embedder {self.embedder.name!r} returned shape {matrix.shape} for "
                f"{count} text(s); it must return ({count}, {dim}) (its dim is {dim})"
            )
        if not np.isfinite(matrix).all():
            raise EmbedderError(
                f"the embedder {self.embedder.name!r} returned NaN or infinite values"
            )
        return matrix

    # -- writes ---------------------------------------------------------------------------

    def put(
        self,
        namespace: Namespace,
        key: str,
        value: dict[str, Any],
        /,
        *,
        ttl: Any = NOT_GIVEN,
        source: str = "api",
        event: Literal["merge"] | None = None,
        if_updated_at: Any = NOT_GIVEN,
        valid_from: Any = None,
        valid_to: Any = NOT_GIVEN,
        provenance: Provenance | None = None,
    ) -> MemoryItem:
        """Insert or replace (upsert) one item, and record the change in its history.

        Args:
            namespace: E.g. ``("users", "alice")``.
            key: Unique within the namespace.
            value: A dict with a non-empty ``"text"`` (embedded); the other entries are kept
                exactly (any JSON: nested dicts, lists, None).
            ttl: Seconds until the item expires; ``None`` never; default the store's ``ttl``.
            source: Who writes, kept in the history (see :meth:`history`): ``"api"``
                (default), ``"tool"``, ``"extractor"``, ``"turn"``, ... a lower-case
                identifier of 1-32 characters.
            event: ``None`` records ``"add"`` where no live item was there, else
                ``"update"``; ``"merge"`` records ``"merge"`` (an update that merged a
                duplicate into this item), or ``"add"`` where no live item was there.
            if_updated_at: Compare-and-set (see :mod:`memvault.compare_and_set`): write only
                if the stored item's ``updated_at`` is this (Unix seconds, as read from
                :meth:`get`), checked atomically with the write; ``None``: only if the key
                holds no live item. Default: write whatever is there.
            valid_from: When what the value says began to hold in the world: Unix seconds
                or a ``datetime`` (naive means UTC). Default: a key that holds a live item
                keeps its ``valid_from`` (an edit does not restate when the fact began); a
                new one holds from when it is written (now).
            valid_to: When it stopped holding (same units), or ``None``: it still holds (a
                closed item is opened again). Default: a live item keeps its ``valid_to``
                (writing a closed memory again leaves it closed), a new one still holds. A
                search leaves out what no longer holds unless asked ``as_of`` a time when it
                did; :meth:`supersede` closes an item for you.
            provenance: Who wrote this version and in which session
                (:class:`~memvault.model.Provenance`), kept with the item (``item.provenance``)
                where ``source`` is kept with each change in the history. Default: the origin
                ``source`` names (``"tool"``, ``"extractor"``, ``"import"``, ``"turn"``: a
                user's turn; see :func:`memvault.provenance.origin_of_source`), else
                ``"api"``, with no session.

        Returns:
            The stored item. Overwriting keeps ``created_at`` and moves ``updated_at``.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError: On
                bad input (``source``, ``event``, ``if_updated_at`` and ``provenance`` too, and
                ``if_updated_at`` on a backend without compare-and-set); nothing is written.
            ConflictError: If ``if_updated_at`` is not what is stored; nothing is written.
            EmbedderError: If the embedder fails; nothing is written.
            EmbedderMismatchError: If the embedder's output is not the one the store was
                written with (see :class:`MemoryStore`); nothing is written.
        """
        expected = None if if_updated_at is NOT_GIVEN else {key: if_updated_at}
        return self.put_many(
            namespace,
            [(key, value)],
            ttl=ttl,
            source=source,
            event=event,
            if_updated_at=expected,
            valid_from=valid_from,
            valid_to=valid_to,
            provenance=provenance,
        )[0]

    def put_many(
        self,
        namespace: Namespace,
        items: Iterable[tuple[str, dict[str, Any]]],
        /,
        *,
        ttl: Any = NOT_GIVEN,
        timestamp: float | None = None,
        source: str = "api",
        event: Literal["merge"] | None = None,
        if_updated_at: Mapping[str, float | None] | None = None,
        valid_from: Any = None,
        valid_to: Any = NOT_GIVEN,
        provenance: Provenance | None = None,
    ) -> list[MemoryItem]:
        """Upsert several items in one namespace with one embedding call and one write.

        All or nothing: every input is checked and embedded before anything is written, and
        the write (history included) is one transaction, whatever the number of items.

        An item written again as it is stored (the same value, and with ``timestamp`` and
        ``ttl`` the same ``updated_at`` and expiry, as a conversation ingested again gives
        it) is left as it is: nothing is embedded or written and its history gets no entry.
        Written again with a new time or expiry, it moves them (as LangGraph's stores do on
        every put, refreshing a TTL) and its history still gets no entry (the history
        records changes of value). A text the store holds already is not embedded again
        where the backend reads embeddings back
        (:attr:`~memvault.backends.base.Backend.returns_embeddings`).

        Args:
            namespace: E.g. ``("users", "alice")``.
            items: ``(key, value)`` pairs, values as in :meth:`put`, each key at most once.
            ttl: As in :meth:`put`, for every item; counted from now.
            timestamp: Unix seconds to record as the items' ``updated_at`` (and ``created_at``
                of new keys) instead of now, e.g. when loading a past conversation, so that
                recency order follows when things were said. The history entries are at now.
            source: As in :meth:`put`, for every item.
            event: As in :meth:`put`, for every item (``"add"`` or ``"update"`` per item by
                default).
            if_updated_at: Compare-and-set per item: ``{key: updated_at}`` for the items
                that may be written only over the version read (``None``: only where the key
                holds no live item), as ``put(..., if_updated_at=)``; keys not named write
                as they are. One conflict and nothing of the batch is written.
            valid_from: As in :meth:`put`, for every item; a new key's default is
                ``timestamp`` if given, else now (a statement holds from when it was said).
            valid_to: As in :meth:`put`, for every item.
            provenance: As in :meth:`put`, for every item.

        Returns:
            The stored items, in the order given.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError: If
                any input is bad (a key given twice, an ``if_updated_at`` key not among the
                items too); then nothing at all is written.
            ConflictError: If an item's stored ``updated_at`` is not the one given; nothing
                is written.
            EmbedderError: If the embedder fails; nothing is written.
            EmbedderMismatchError: If the embedder's output is not the one the store was
                written with (see :class:`MemoryStore`); nothing is written.
        """
        namespace = validate_namespace(namespace)
        expires_in = self.ttl if ttl is NOT_GIVEN else validate_ttl(ttl)
        batch = validate_items(items)
        change = Change(
            source=validate_source(source),
            merge=_merging(event),
            expected=self._expected(namespace, batch, if_updated_at),
        )
        written_by = validate_provenance(provenance, change.source)
        written_at = None if timestamp is None else validate_time(timestamp, "timestamp")
        holds_from = validate_moment(valid_from, "valid_from", optional=True)
        holds_to = (
            None if valid_to is NOT_GIVEN else validate_moment(valid_to, "valid_to", optional=True)
        )
        if not batch:
            return []
        now = self._clock()
        when = now if written_at is None else written_at
        if holds_from is not None:  # else checked once a live item's is kept (_keeping)
            validate_validity(holds_from, holds_to)
        keep = (holds_from is None, valid_to is NOT_GIVEN)
        expires_at = None if expires_in is None else now + expires_in
        records = [
            Record(
                namespace=namespace,
                key=key,
                value=value,
                created_at=when,
                updated_at=when,
                expires_at=expires_at,
                valid_from=when if holds_from is None else holds_from,
                valid_to=holds_to,
                provenance=written_by,
            )
            for key, value in batch.items()
        ]
        return [MemoryItem.from_record(r) for r in self._write(records, now, change, keep=keep)]

    def _expected(
        self, namespace: Namespace, batch: Mapping[str, Any], if_updated_at: Any
    ) -> tuple[tuple[str, float | None], ...]:
        """``if_updated_at`` of :meth:`put_many`, checked, as ``Change.expected``."""
        if if_updated_at is None:
            return ()
        if not isinstance(if_updated_at, Mapping):
            raise InvalidArgumentError(
                "if_updated_at must be a dict of {key: updated_at or None}, got "
                f"{type(if_updated_at).__name__}"
            )
        unknown = [key for key in if_updated_at if key not in batch]
        if unknown:
            raise InvalidArgumentError(
                f"if_updated_at names {unknown[0]!r:.80}, which is not among the items written"
            )
        if if_updated_at:
            self._check_compare_and_set()
        return tuple(
            (
                record_id(namespace, key),
                validate_time(expected, "if_updated_at", optional=True),
            )
            for key, expected in if_updated_at.items()
        )

    def _check_compare_and_set(self) -> None:
        """Refuse an ``if_updated_at`` on a backend that declares no compare-and-set.

        Raises:
            InvalidArgumentError: Naming the backend and its flag.
        """
        if not self.backend.supports_compare_and_set:
            raise InvalidArgumentError(
                f"if_updated_at needs a backend with compare-and-set; "
                f"{type(self.backend).__name__} declares supports_compare_and_set = False"
            )

    def _write(
        self,
        records: list[Record],
        now: float,
        change: Change,
        carried: Sequence[Vector | None] | None = None,
        *,
        keep: tuple[bool, bool] = (False, False),
        stored: Sequence[Record | None] | None = None,
    ) -> list[Record]:
        """Write records with their history in one backend write, embedding what must be.

        A record the store holds already as it is (live, with the same value, ``updated_at``
        and ``expires_at``) is not written again: nothing is embedded or written for it and
        its history gets no entry, unless ``change.expected`` names it (the backend checks
        it in the write). A record whose indexed text is the stored version's keeps the
        stored embedding where the backend reads embeddings back
        (:attr:`~memvault.backends.base.Backend.returns_embeddings`); the others are embedded
        in one call.

        Args:
            records: What to write.
            now: Unix seconds of the write.
            change: Its source, kind and conditions.
            carried: Per record, an embedding of this store's embedder to write with it
                (an import's), or ``None`` to embed (or keep) as above.
            keep: Whether a record replacing a live version takes that version's
                ``valid_from``, and its ``valid_to``, instead of its own (a put that did not
                give them).
            stored: Per record, its stored version (``None`` where none) as the caller has
                just read it with ``backend.get``, so it is not read again; default: read
                here.

        Returns:
            The stored version of each record, in order.

        Raises:
            InvalidArgumentError: If a kept ``valid_from`` is not before a given
                ``valid_to``; nothing is written.
        """
        backend = self.backend
        if stored is None:
            stored = backend.get([r.id for r in records])
        if any(keep):
            records = [_keeping(new, old, now, keep) for new, old in zip(records, stored)]
        named = {item_id for item_id, _ in change.expected}
        kept = [
            old is not None and old.id not in named and old.live(now) and _same_version(old, new)
            for old, new in zip(stored, records)
        ]
        given = [None] * len(records) if carried is None else carried
        writing = [
            (new, old, vector)
            for new, old, vector, same in zip(records, stored, given, kept)
            if not same
        ]
        written: list[Record] = []
        if writing or change.imported_history:
            vectors = self._vectors(writing)
            written = backend.upsert([w[0] for w in writing], vectors, now=now, change=change)
        fresh = iter(written)
        return [old if same and old is not None else next(fresh) for old, same in zip(stored, kept)]

    def _vectors(self, writing: list[tuple[Record, Record | None, Vector | None]]) -> np.ndarray:
        """The embeddings of records to write, shape ``(len(writing), dim)``.

        Args:
            writing: Each record with the version it replaces (``None`` where none) and the
                embedding it comes with (``None`` where none): one of the same indexed text
                as the version it replaces keeps the stored embedding, where the backend
                reads embeddings back; the rest are embedded in one call.
        """
        texts = [indexed_text(new.value) for new, _, _ in writing]
        vectors: dict[int, Any] = {
            index: given for index, (_, _, given) in enumerate(writing) if given is not None
        }
        same_text = [
            index
            for index, (_, old, _) in enumerate(writing)
            if index not in vectors
            and self.backend.returns_embeddings
            and old is not None
            and indexed_text(old.value) == texts[index]
        ]
        if same_text:
            kept = self.backend.embeddings([writing[index][0].id for index in same_text])
            vectors.update((i, v) for i, v in zip(same_text, kept) if v is not None)
        missing = [index for index in range(len(writing)) if index not in vectors]
        if missing:
            vectors.update(zip(missing, self._embed([texts[index] for index in missing])))
        matrix = np.zeros((len(writing), int(self.embedder.dim)), dtype=np.float32)
        for index, vector in vectors.items():
            matrix[index] = vector
        return matrix

    def delete(
        self,
        namespace: Namespace,
        key: str,
        /,
        *,
        source: str = "api",
        if_updated_at: Any = NOT_GIVEN,
        erase: bool = False,
    ) -> None:
        """Delete one item; deleting an absent key does nothing.

        The history records ``"delete"`` (``"expire"`` if the item had expired but was still
        on disk) and is kept after the item is gone.

        With ``erase=True`` the text goes too, for privacy (a user asking to forget a health
        detail): every history entry of the key keeps its event, time and source but loses
        its values, an ``"erase"`` entry is recorded, and the backend leaves the text
        readable in none of its files (see ``docs/erase.md`` for what each backend
        guarantees, and what no erase reaches: backups, exports and copies made before).
        Erasing a key with no item but a history scrubs the history.

        Args:
            namespace: The item's namespace, exactly.
            key: Its key.
            source: Who deletes, kept in the history (see :meth:`put`).
            if_updated_at: Conditional delete (see :mod:`memvault.compare_and_set`): delete
                only if the stored item is live and its ``updated_at`` is this (Unix seconds,
                as read from :meth:`get`), checked atomically with the delete. Default:
                delete whatever is there.
            erase: Also remove the text from the history and the files (above).

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidArgumentError: On a bad namespace,
                key or source (``if_updated_at`` too, ``erase`` not a bool, and
                ``if_updated_at`` on a backend without compare-and-set); nothing is deleted.
            ConflictError: If ``if_updated_at`` is given and the key holds no live item or
                one of another ``updated_at``; nothing is deleted.
            StoreBusyError: With ``erase``, if another process holds the store's vector index
                past the lock timeout: the item and its history's text are erased already, and
                the index is scrubbed by the next drain (a write, a close).
            BackendError: With ``erase``, if a file of the vector index cannot be rewritten;
                the message says what was erased already.

        Example:
            >>> alice = ("users", "alice")
            >>> item = store.get(alice, "tea")  # doctest: +SKIP
            >>> store.delete(alice, "tea", if_updated_at=item.updated_at)  # doctest: +SKIP
        """
        item_id = record_id(validate_namespace(namespace), validate_key(key))
        source = validate_source(source)
        if not isinstance(erase, bool):
            raise InvalidArgumentError(f"erase must be True or False, got {shown(erase)}")
        if if_updated_at is NOT_GIVEN:
            self.backend.delete([item_id], now=self._clock(), source=source, erase=erase)
            return
        expected = ((item_id, validate_time(if_updated_at, "if_updated_at")),)
        self._check_compare_and_set()
        self.backend.delete(
            [item_id], now=self._clock(), source=source, expected=expected, erase=erase
        )

    def supersede(
        self,
        namespace: Namespace,
        key: str,
        /,
        *,
        by: str | None = None,
        at: Any = None,
        source: str = "api",
        if_updated_at: Any = NOT_GIVEN,
    ) -> MemoryItem:
        """Close an item: what it says held until ``at``, and (with ``by``) what replaced it.

        Supersede, not overwrite: the item stays, with ``valid_to = at``, so that a search
        ``as_of`` a time before ``at`` still finds it and its history shows both; a search
        of now leaves it out. With ``by``, the item's value gets ``"superseded_by": by`` and
        the item ``by``'s value ``"supersedes": key`` (both written in one step, with their
        history: ``"update"``); without, the item just ends ("I no longer eat meat").

        For callers without a language model: the reconciler of the agent layer calls this on
        an UPDATE or DELETE (:mod:`memvault.agent`).

        Args:
            namespace: The items' namespace, exactly.
            key: The item that no longer holds; live, not closed already.
            by: The key of the live item that replaces it, in the same namespace (write it
                first, e.g. with ``put(..., valid_from=at)``), or ``None``.
            at: When it stopped holding: Unix seconds or a ``datetime`` (naive means UTC),
                like ``timestamp=``; after its ``valid_from``. Default: ``by``'s
                ``valid_from`` if given, else now.
            source: Who closes it, kept in the history (see :meth:`put`).
            if_updated_at: Compare-and-set, as in :meth:`put`: close ``key`` only if its
                ``updated_at`` is this (Unix seconds, as read), checked atomically with the
                write (a decision made on a version read earlier is not applied to a newer
                one). Default: close whatever is there.

        Returns:
            The closed item.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidArgumentError: On bad input: an
                ``at`` not after the item's ``valid_from``, ``by`` equal to ``key``
                (``if_updated_at`` on a backend without compare-and-set too).
            ItemNotFoundError: If ``key`` (or ``by``) holds no live item, or ``key`` is
                closed already (its ``valid_to`` is set); nothing is written.
            ConflictError: If ``if_updated_at`` is given and ``key``'s item has another
                ``updated_at``; nothing is written.
        """
        namespace, key = validate_namespace(namespace), validate_key(key)
        source = validate_source(source)
        if by is not None:
            by = validate_key(by)
            if by == key:
                raise InvalidArgumentError(f"by must be another key than {key!r}, the one closed")
        closing = validate_moment(at, "at", optional=True)
        expected = None
        if if_updated_at is not NOT_GIVEN:
            expected = validate_time(if_updated_at, "if_updated_at")
            self._check_compare_and_set()
        now = self._clock()
        keys = [key] if by is None else [key, by]
        found = self.backend.get([record_id(namespace, k) for k in keys])
        for name, record in zip(keys, found):
            if record is None or not record.live(now):
                raise ItemNotFoundError(
                    f"no live item at key {name!r} in {namespace!r} to supersede"
                    + (" with" if name == by else "")
                )
        old = found[0]
        assert old is not None
        if old.valid_to is not None:
            raise ItemNotFoundError(
                f"the item at key {key!r} was closed already (valid_to {old.valid_to:.0f}); "
                "supersede an item that still holds"
            )
        if expected is not None and old.updated_at != expected:
            raise ConflictError(
                f"the item at key {key!r} in {namespace!r} changed since it was read "
                f"(updated_at {old.updated_at} is not {expected}); read it again",
                namespace=namespace,
                key=key,
                updated_at=old.updated_at,
            )
        new = found[1] if by is not None else None
        if new is not None and new.valid_to is not None:
            raise ItemNotFoundError(
                f"the item at key {by!r} was closed already (valid_to {new.valid_to:.0f}); "
                "supersede by an item that still holds"
            )
        if closing is None:
            closing = now if new is None else max(new.valid_from, old.valid_from + 1e-3)
        validate_validity(old.valid_from, closing)
        closed = replace(
            old,
            value={**old.value, **({"superseded_by": by} if by is not None else {})},
            updated_at=now,
            valid_to=closing,
        )
        records = [closed]
        if new is not None:
            records.append(replace(new, value={**new.value, "supersedes": key}, updated_at=now))
        written = self._write(
            records,
            now,
            Change(source=source, expected=tuple((r.id, r.updated_at) for r in found if r))
            if self.backend.supports_compare_and_set
            else Change(source=source),
            stored=found,  # the versions just read, one per record in order: not read again
        )
        return MemoryItem.from_record(written[0])

    def history(self, namespace: Namespace, key: str, /) -> list[HistoryEntry]:
        """Every change to one item, oldest first: add, update, merge, delete, expire.

        The history of a deleted item is kept (and goes on if the key is written again).
        Only ``namespace`` exactly is read, never a namespace above or below it.

        Args:
            namespace: The item's namespace, e.g. ``("users", "alice")``.
            key: Its key.

        Returns:
            :class:`~memvault.HistoryEntry` objects by ``at`` (Unix seconds), entries of one
            time in the order they were written; ``[]`` for a key never written.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.

        Example:
            >>> store.put(("users", "alice"), "tea", {"text": "likes tea"})  # doctest: +SKIP
            >>> [e.event for e in store.history(("users", "alice"), "tea")]  # doctest: +SKIP
            ['add']
        """
        namespace, key = validate_namespace(namespace), validate_key(key)
        return self.backend.history(namespace, key)

    # -- reads ----------------------------------------------------------------------------

    def get(self, namespace: Namespace, key: str, /) -> MemoryItem | None:
        """The live item at ``(namespace, key)``, or ``None`` if absent or expired.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.
        """
        namespace, key = validate_namespace(namespace), validate_key(key)
        (record,) = self.backend.get([record_id(namespace, key)])
        if record is None or not record.live(self._clock()):
            return None
        return MemoryItem.from_record(record)

    def search(
        self,
        namespace_prefix: Namespace = (),
        /,
        *,
        query: str | None = None,
        filter: Filter | None = None,
        limit: int = 10,
        offset: int = 0,
        mode: SearchMode | None = None,
        as_of: Any = None,
        include_closed: bool = False,
    ) -> Memories:
        """Find live items in a namespace and everything below it.

        By default only what holds now: an item closed by :meth:`supersede` (or written
        with a ``valid_to`` in the past) is left out. ``as_of`` asks what held at another
        time, and a query naming a past period ("where did I live in April 2023?", read by
        :mod:`memvault.periods`) finds what held then as well as what holds now (see
        :class:`~memvault.model.Validity`).

        Args:
            namespace_prefix: E.g. ``("users",)`` covers ``("users", "alice")`` and
                ``("users", "bob", "work")`` but not ``("users2",)``; ``()`` covers all.
            query: Natural-language query, ranked as ``mode`` says, with ``score`` set.
                ``None`` or blank: most recently updated first, ``score`` None.
            filter: Metadata filter on value fields (see :mod:`memvault.filters`), applied
                inside the query so ``limit`` live matches come back when they exist.
            limit: Most items to return, ``>= 1``.
            offset: Items to skip first, ``>= 0``. Consecutive pages never repeat or skip an
                item, in every mode.
            mode: How a query ranks: ``"dense"`` by cosine similarity of embeddings (score
                in ``[-1, 1]``); ``"lexical"`` by BM25 over the indexed words (score > 0;
                items sharing no word with the query are not found); ``"hybrid"`` fuses both
                by their normalised scores, the best lexical match first, and ranks higher
                the items created in a period the query names, such as "in July 2022" (see
                :mod:`memvault.fusion` for the score, the order and its paging, and
                :mod:`memvault.periods` for the dates read). Namespace,
                liveness and filter apply the same in every mode. Default: the store's
                ``search_mode``.
            as_of: Return what held at this time, Unix seconds or a ``datetime`` (naive
                means UTC): items with ``valid_from <= as_of`` and no ``valid_to`` or a
                later one. Default: now, widened to the period a query names.
            include_closed: Also return the items that no longer hold, whenever they held
                (what forgetting must reach); not with ``as_of``.

        Returns:
            Up to ``limit`` items, as :class:`~memvault.rendering.Memories` (a
            ``list[MemoryItem]`` that Jupyter shows as a table).

        Raises:
            InvalidNamespaceError, InvalidFilterError, InvalidArgumentError: On bad input, or
                a mode the backend does not serve.
            EmbedderMismatchError: If a query is embedded and the embedder's output is not
                the one the store was written with (see :class:`MemoryStore`).
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        clauses = normalize_filter(filter)
        check_count(limit, "limit", minimum=1)
        check_count(offset, "offset", minimum=0)
        check_query(query)
        backend = self.backend
        mode = check_mode(self.default_mode if mode is None else mode, backend.search_modes)
        asked = query if query is not None and query.strip() else None
        at = validate_moment(as_of, "as_of", optional=True)
        if not isinstance(include_closed, bool) or (include_closed and at is not None):
            raise InvalidArgumentError(
                f"include_closed must be True or False, and not True with as_of, got "
                f"{shown(include_closed)}"
            )
        now = self._clock()
        named = named_periods(asked) if asked else []
        request = SearchRequest(
            prefix=prefix,
            mode=mode if asked else None,
            query=asked,
            embedding=self._embed_query(asked) if asked and mode != "lexical" else None,
            clauses=clauses,
            now=now,
            limit=limit,
            offset=offset,
            periods=tuple(
                (period.start, period.end + DATE_SLACK)
                for period in (named if mode == "hybrid" else [])
            ),
            valid=Validity(0.0)  # every record: a valid_to is after a valid_from >= 0
            if include_closed
            else Validity(at, at)
            if at is not None
            else Validity(min([now, *(period.start for period in named)])),
        )
        score_type: ScoreType | None = _SCORE_TYPES[mode] if asked else None
        return Memories(
            MemoryItem.from_record(record, score, score_type)
            for record, score in backend.search(request)
            if record.live(request.now)
        )

    def list_namespaces(
        self,
        *,
        prefix: Namespace | None = None,
        suffix: Namespace | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Namespace]:
        """The namespaces that hold live items, sorted.

        Args:
            prefix: Only namespaces at or below this one.
            suffix: Only namespaces that end with these segments.
            max_depth: Cut longer namespaces to this many segments (duplicates merged), as
                LangGraph's ``BaseStore.list_namespaces`` does.
            limit: Most namespaces to return, ``>= 1``.
            offset: Namespaces to skip first, ``>= 0``.

        Returns:
            Namespace tuples in sorted order.

        Raises:
            InvalidNamespaceError, InvalidArgumentError: On bad input.
        """
        start = validate_namespace(prefix or (), allow_empty=True)
        end = validate_namespace(suffix or (), allow_empty=True)
        check_count(limit, "limit", minimum=1)
        check_count(offset, "offset", minimum=0)
        if max_depth is not None:
            check_count(max_depth, "max_depth", minimum=1)
        found = self.backend.namespaces(start, now=self._clock())
        if end:
            found = [ns for ns in found if ns[len(ns) - len(end) :] == end]
        if max_depth is not None:
            found = list(dict.fromkeys(ns[:max_depth] for ns in found))
        return sorted(found)[offset : offset + limit]

    def stats(self) -> StoreStats:
        """How many live memories each namespace holds, and the store's recorded settings.

        Each memory counts once, in its own namespace (not in the namespaces above it).

        Returns:
            A :class:`StoreStats`.
        """
        found = self.list_namespaces(limit=MAX_COUNT)
        below = {ns: self.count(ns) for ns in found}  # in the namespace and below it
        own = dict(below)
        for ns in found:  # take each namespace's items out of its nearest listed ancestor
            parent = next((ns[:i] for i in range(len(ns) - 1, 0, -1) if ns[:i] in below), None)
            if parent is not None:
                own[parent] -= below[ns]
        return StoreStats(
            memories=sum(own.values()),
            namespaces=own,
            info=dict(self.backend.get_info() or {}),
        )

    def count(self, namespace_prefix: Namespace = (), /) -> int:
        """How many live items lie in a namespace and below it.

        Raises:
            InvalidNamespaceError: On a bad prefix.
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        return self.backend.count(prefix, now=self._clock())

    # -- upkeep ---------------------------------------------------------------------------

    def expired(self, max_age: float | None = None) -> list[MemoryItem]:
        """What :meth:`cleanup` would delete now, oldest first (expired ones included).

        Args:
            max_age: Seconds; items whose ``updated_at`` is older than ``now - max_age`` count
                too (for an ingested turn, ``updated_at`` is when it was said).

        Returns:
            The items, by ``updated_at`` then key.

        Raises:
            InvalidArgumentError: If ``max_age`` is not a positive number.
        """
        return self._expired(max_age, self._clock())

    def _expired(self, max_age: float | None, now: float) -> list[MemoryItem]:
        age = validate_ttl(max_age, "max_age")
        doomed = [
            r
            for r in self.backend.scan((), now=None)
            if not r.live(now) or (age is not None and r.updated_at < now - age)
        ]
        doomed.sort(key=lambda r: (r.updated_at, r.id))
        return [MemoryItem.from_record(r) for r in doomed]

    def cleanup(self, max_age: float | None = None) -> int:
        """Delete expired items from disk (and with ``max_age``, items not updated for that long).

        Each one's history records ``"expire"`` (at its expiry time) for an expired item, or
        ``"delete"`` for one removed by ``max_age``, with source ``"cleanup"``.

        Args:
            max_age: Seconds; items whose ``updated_at`` is older than ``now - max_age`` go too.

        Returns:
            How many items were deleted (those :meth:`expired` lists).

        Raises:
            InvalidArgumentError: If ``max_age`` is not a positive number.
        """
        now = self._clock()
        doomed = [record_id(item.namespace, item.key) for item in self._expired(max_age, now)]
        if doomed:
            self.backend.delete(doomed, now=now, source="cleanup")
        return len(doomed)

    def export_jsonl(
        self,
        path: str | Path,
        /,
        namespace_prefix: Namespace = (),
        *,
        with_vectors: bool = False,
    ) -> int:
        """Write live items and the history of every key to a JSON Lines file.

        One :class:`MemoryItem` (without score) a line, sorted by namespace and key; then one
        history entry a line (``"kind": "history"``), key by key, each key's oldest first,
        for every key under the prefix, deleted ones too (see :mod:`memvault.transfer`).

        Args:
            path: File to write (replaced if it exists).
            namespace_prefix: Only items and history at or below this namespace.
            with_vectors: Also write each item's stored embedding, after a first line naming
                the store's embedder (name, dim and fingerprint, as the store records them),
                so that :meth:`import_jsonl` into a store of the same embedder embeds nothing.
                About 5 kB more a memory at 384 dimensions.

        Returns:
            How many items were written.

        Raises:
            InvalidArgumentError: If ``path`` cannot be written (a missing folder, a folder),
                or ``with_vectors`` is asked of a backend that does not read embeddings back
                (:attr:`~memvault.backends.base.Backend.returns_embeddings`).
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        backend = self.backend
        if with_vectors and not backend.returns_embeddings:
            raise InvalidArgumentError(
                f"with_vectors needs a backend that reads its embeddings back; "
                f"{type(backend).__name__} declares returns_embeddings = False: export "
                "without vectors (an import embeds the texts again)"
            )
        records = sorted(backend.scan(prefix, now=self._clock()), key=lambda r: r.id)
        if not with_vectors:
            return write_jsonl(records, path, backend.history_under(prefix))
        return write_jsonl(
            records,
            path,
            backend.history_under(prefix),
            vectors=self._stored_embeddings(records),
            embedder=backend.get_info(),
        )

    def _stored_embeddings(self, records: list[Record]) -> Iterator[Vector | None]:
        """The stored embedding of each record, in order, read a chunk of ids at a time."""
        for start in range(0, len(records), _EMBEDDINGS_CHUNK):
            chunk = records[start : start + _EMBEDDINGS_CHUNK]
            yield from self.backend.embeddings([r.id for r in chunk])

    def import_jsonl(self, path: str | Path, /) -> int:
        """Read items and history written by :meth:`export_jsonl`, keeping times and TTLs.

        All or nothing: every line is checked and embedded before one write. Texts are
        embedded with this store's embedder, unless the file carries vectors
        (``export_jsonl(..., with_vectors=True)``) of the embedder this store records: the
        same name and dimension, and a fingerprint within :data:`FINGERPRINT_MIN_COSINE`.
        Then the carried vectors are written and nothing is embedded; vectors of another
        embedder are left aside and the texts embedded again, as a file without vectors is
        (how a store moves to another embedder). Items already expired are skipped, and
        items stored already as they are left as they are. History entries are kept as they
        were (an entry already kept is not added twice); an item that comes without history
        gets an ``"add"`` or ``"update"`` entry with source ``"import"``. A file of items
        alone (an older export) imports as it did.

        Args:
            path: The JSON Lines file.

        Returns:
            How many items were written.

        Raises:
            ImportFormatError: If the file is missing or a line is not a valid item or history
                entry (the message names the line).
            EmbedderError: If the embedder fails; nothing is written.
            EmbedderMismatchError: If the embedder's output is not the one the store was
                written with (see :class:`MemoryStore`); nothing is written.
        """
        now = self._clock()
        exported = read_jsonl(path)
        live = [(r, v) for r, v in zip(exported.records, exported.vectors) if r.live(now)]
        records = [record for record, _ in live]
        carried = [vector for _, vector in live] if self._embeds_as(exported.embedder) else None
        change = Change(source="import", imported_history=tuple(exported.history))
        if records or change.imported_history:
            self._write(records, now, change, carried)
        return len(records)

    def _embeds_as(self, embedder: dict[str, Any] | None) -> bool:
        """Whether vectors of ``embedder`` (an export's embedder line) are this store's.

        The same name and dimension as the store records, and fingerprints within
        :data:`FINGERPRINT_MIN_COSINE`.
        """
        recorded = self.backend.get_info()
        if embedder is None or recorded is None or recorded.get("fingerprint") is None:
            return False
        if (embedder["embedder"], embedder["dim"]) != (recorded["embedder"], recorded["dim"]):
            return False
        return _cosine(embedder["fingerprint"], recorded["fingerprint"]) >= FINGERPRINT_MIN_COSINE

    def close(self) -> None:
        """Release the backend's files and clients.

        Using the store afterwards raises :class:`~memvault.errors.StoreClosedError`; closing
        twice does nothing.
        """
        backend, self._backend = self._backend, None
        if backend is not None:
            backend.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    aput = async_twin(put)
    aput_many = async_twin(put_many)
    adelete = async_twin(delete)
    asupersede = async_twin(supersede)
    ahistory = async_twin(history)
    aget = async_twin(get)
    asearch = async_twin(search)
    alist_namespaces = async_twin(list_namespaces)
    acount = async_twin(count)
    astats = async_twin(stats)
    aexpired = async_twin(expired)
    acleanup = async_twin(cleanup)
    aexport_jsonl = async_twin(export_jsonl)
    aimport_jsonl = async_twin(import_jsonl)
    aclose = async_twin(close)
