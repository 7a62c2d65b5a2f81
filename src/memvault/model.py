"""memvault's data model: what every layer hands to the others, importing nothing of memvault.

Every other module depends on this one and it on none of them (a test checks the import
graph), so the shapes below are the vocabulary of the whole package:

- a **namespace** (:data:`Namespace`, a tuple of strings) and its string key
  (:func:`ns_key`), whose prefixes are exactly the namespace's prefixes, so that a namespace
  prefix is one string range (:func:`prefix_range`) in every SQL backend;
- a **record** (:class:`Record`): one item as backends store it, with its id
  (:func:`record_id`);
- **rankings** (:data:`Ranked`, :data:`Found`) and **search modes** (:data:`SearchMode`);
- **history** (:class:`HistoryEntry`, :data:`HistoryEvent`) and how a write enters it
  (:class:`Change`);
- **provenance** (:class:`Provenance`, :data:`Origin`): who wrote a record's current version,
  and in which session.

Validation lives with the rules it checks (:mod:`memvault.namespace`, :mod:`memvault.items`,
:mod:`memvault.history`); nothing here checks its input. All times are Unix seconds (UTC).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Union, get_args

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "HISTORY_EVENTS",
    "ORIGINS",
    "PREFIX_END",
    "SEARCH_MODES",
    "Change",
    "SearchRequest",
    "Clauses",
    "Found",
    "HistoryEntry",
    "HistoryEvent",
    "Namespace",
    "Origin",
    "Page",
    "Provenance",
    "Ranked",
    "Record",
    "SearchMode",
    "Vector",
    "Vectors",
    "namespace_of_key",
    "ns_key",
    "prefix_range",
    "record_id",
    "unit_vectors",
    "Validity",
]

Namespace = tuple[str, ...]
"""A namespace, e.g. ``("users", "alice")``; ``()`` as a prefix covers every namespace."""

SearchMode = Literal["hybrid", "dense", "lexical"]
"""How a query ranks: see :meth:`memvault.MemoryStore.search`."""
SEARCH_MODES: tuple[SearchMode, ...] = get_args(SearchMode)

Clauses = list[tuple[str, str, Any]]
"""A parsed metadata filter: ``(field, operator, operand)`` clauses, all of which must hold
(made by :func:`memvault.filters.normalize_filter`)."""
Ranked = list[tuple[str, float]]
"""A ranking: ``(record id, score)`` pairs, best first."""
Found = list[tuple["Record", float]]
"""A ranking with its records: ``(record, score)`` pairs, best first."""
# numpy is named, not imported: the model is imported by the command line's start, which needs
# no numpy (``memvault --version``)
Vector = Union[Sequence[float], "np.ndarray"]  # noqa: UP007 - a string needs Union
"""One embedding, shape ``(dim,)``: floats or a 1-D array."""
Vectors = Union[Sequence[Vector], "np.ndarray"]  # noqa: UP007
"""Embeddings, shape ``(n, dim)``: a sequence of vectors or a 2-D array."""


Origin = Literal["user", "assistant", "tool", "extractor", "api", "import"]
"""Who wrote a memory: a ``"user"`` turn, an ``"assistant"`` turn, a memory ``"tool"`` the model
called, an ``"extractor"`` (or reconciler) drawing facts from a turn, a direct ``"api"`` call, or
an ``"import"`` of a file that did not say."""
ORIGINS: tuple[Origin, ...] = get_args(Origin)


@dataclass(frozen=True)
class Provenance:
    """Who wrote a record's current version, and in which session.

    Not the history's ``source`` (:attr:`HistoryEntry.source`), which says who made each
    change (``"cleanup"`` and ``"restore"`` too, or a caller's own identifier): provenance is
    one of the closed set :data:`ORIGINS`, kept with the record itself, so that a trust
    policy can read it (:class:`memvault.AgentMemory`'s ``trust``). A record written before
    provenance existed reads as ``Provenance("api", None)``.

    Attributes:
        origin: One of :data:`ORIGINS`.
        session: The conversation it was said in (an agent scope's ``session_id``), or
            ``None``.
    """

    origin: Origin = "api"
    session: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"origin": ..., "session": ...}``, as an export file and a record's JSON hold it."""
        return {"origin": self.origin, "session": self.session}


@dataclass(frozen=True)
class Record:
    """One item as backends store it (see :class:`~memvault.MemoryItem` for the fields).

    Two kinds of time: when the item was recorded (``created_at``, ``updated_at``, and
    ``expires_at`` for its TTL) and when what it says holds in the world (``valid_from``,
    ``valid_to``; see :class:`Validity`). ``valid_from`` left ``None`` on construction is
    ``updated_at`` (a statement holds from when it was said); ``valid_to`` ``None`` means it
    still holds. ``provenance`` says who wrote this version (:class:`Provenance`).
    """

    namespace: Namespace
    key: str
    value: dict[str, Any]
    created_at: float
    updated_at: float
    expires_at: float | None
    valid_from: float = None  # type: ignore[assignment]  # None: updated_at (__post_init__)
    valid_to: float | None = None
    provenance: Provenance = Provenance()

    def __post_init__(self) -> None:
        if self.valid_from is None:
            object.__setattr__(self, "valid_from", self.updated_at)

    @property
    def id(self) -> str:
        """The backend id; see :func:`record_id`."""
        return record_id(self.namespace, self.key)

    def live(self, now: float) -> bool:
        """Whether the record has not expired at ``now`` (Unix seconds)."""
        return self.expires_at is None or self.expires_at > now

    def holds(self, valid: Validity) -> bool:
        """Whether the record's validity meets ``valid`` (see :meth:`Validity.admits`)."""
        return valid.admits(self.valid_from, self.valid_to)


@dataclass(frozen=True)
class Validity:
    """Which records a read returns by when they hold in the world: a span of time they overlap.

    A record holds from its ``valid_from`` until its ``valid_to`` (half-open; ``valid_to``
    ``None``: still holds). A read returns a record whose validity reaches past ``since``
    (``valid_to`` is ``None`` or ``> since``) and, where ``until`` is given, began by then
    (``valid_from <= until``):

    - the default of every read, ``Validity(since=now)``: what holds now (a closed record,
      superseded or ended, is left out, whenever it began);
    - ``as_of=T``: ``Validity(since=T, until=T)``, what held at ``T``;
    - a query naming a past period from ``start`` (:mod:`memvault.periods`):
      ``Validity(since=start)``, what held then or since.

    This is the valid-time half of a bitemporal model (Snodgrass, *Developing Time-Oriented
    Database Applications in SQL*, 1999; Graphiti's ``valid_at``/``invalid_at``): the
    recorded time is ``created_at``/``updated_at`` and the history.

    Attributes:
        since: Unix seconds.
        until: Unix seconds ``>= since``, or ``None`` (no bound).
    """

    since: float
    until: float | None = None

    def admits(self, valid_from: float, valid_to: float | None) -> bool:
        """Whether a record valid over ``[valid_from, valid_to)`` (Unix seconds) is returned."""
        return (valid_to is None or valid_to > self.since) and (
            self.until is None or valid_from <= self.until
        )


def record_id(namespace: Namespace, key: str) -> str:
    """A backend id for ``(namespace, key)``: their JSON array, which no two pairs share.

    Joining with a separator would let ``("a/b",), "c"`` and ``("a",), "b/c"`` collide; JSON
    quotes and escapes every part, so distinct pairs always get distinct ids.
    """
    return json.dumps([*namespace, key], ensure_ascii=False, separators=(",", ":"))


def ns_key(namespace: Namespace) -> str:
    """A namespace as a string whose prefixes are exactly the namespace's prefixes.

    Each segment is JSON-quoted (which escapes every control character) and closed by the unit
    separator U+001F, so ``("a",)`` is a string prefix of ``("a", "b")`` but not of ``("ab",)``.
    """
    return "".join(json.dumps(segment, ensure_ascii=False) + "\x1f" for segment in namespace)


def namespace_of_key(key: str) -> Namespace:
    """The namespace whose :func:`ns_key` is ``key`` (its inverse)."""
    return tuple(json.loads(segment) for segment in key.split("\x1f")[:-1])


PREFIX_END = "\U0010ffff"
"""The highest code point: no :func:`ns_key` continues with it, so ``[k, k + PREFIX_END)``
holds exactly the keys that start with ``k``."""


def prefix_range(prefix: Namespace) -> tuple[str, str] | None:
    """The half-open range of :func:`ns_key` strings of the namespaces under ``prefix``.

    Args:
        prefix: A namespace prefix, e.g. ``("users",)``.

    Returns:
        ``(low, high)``: a namespace lies under ``prefix`` exactly when ``low <= ns_key(ns) <
        high`` in code-point order (SQLite's default, Postgres's ``COLLATE "C"``); ``None`` for
        ``()``, which covers everything.
    """
    if not prefix:
        return None
    key = ns_key(prefix)
    return key, key + PREFIX_END


def unit_vectors(embeddings: Vectors) -> np.ndarray:
    """Embeddings as float32 rows of unit length (so a dot product is the cosine similarity).

    Args:
        embeddings: Shape ``(n, dim)``.

    Returns:
        Shape ``(n, dim)``; an all-zero row stays zero.
    """
    import numpy as np

    matrix = np.asarray(embeddings, dtype=np.float32)
    matrix = matrix.reshape(len(matrix), -1)
    return matrix / np.clip(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12, None)


@dataclass(frozen=True)
class SearchRequest:
    """One search, as the store hands it to :meth:`memvault.backends.Backend.search`.

    Attributes:
        prefix: The namespace searched, and everything below it; ``()`` covers all.
        mode: How the query ranks (:data:`SearchMode`); ``None``: no query, most recently
            updated first.
        query: The query text (``None`` without one).
        embedding: The query's embedding, shape ``(dim,)``, for ``"dense"`` and ``"hybrid"``.
        clauses: The parsed metadata filter.
        now: Unix seconds; nothing expired then is returned.
        limit: Most records to return, ``>= 1``.
        offset: Records of the order to skip first, ``>= 0``.
        periods: For ``"hybrid"``: the spans of time the query names, as ``(start, end)``
            Unix seconds, half-open, slack included (:mod:`memvault.periods`); a record
            created in one ranks higher.
        valid: Which records by their validity (:class:`Validity`); ``None`` on
            construction: ``Validity(since=now)``, what holds now.
    """

    prefix: Namespace
    mode: SearchMode | None
    query: str | None
    embedding: np.ndarray | None
    clauses: Clauses
    now: float
    limit: int
    offset: int = 0
    periods: tuple[tuple[float, float], ...] = ()
    valid: Validity = None  # type: ignore[assignment]  # None: Validity(now) (__post_init__)

    def __post_init__(self) -> None:
        if self.valid is None:
            object.__setattr__(self, "valid", Validity(since=self.now))

    def names_period_of(self, created_at: float) -> bool:
        """Whether a record created at ``created_at`` (Unix seconds) is in a named period.

        One of the :attr:`periods` the query names: the rule a hybrid search's date bonus
        follows (:func:`memvault.fusion.blend`'s ``dated``).
        """
        return any(start <= created_at < end for start, end in self.periods)


Page = list[tuple[Record, float | None]]
"""A search's result: ``(record, score)`` pairs in the search's order; ``None`` scores for a
search without a query."""


HistoryEvent = Literal["add", "update", "merge", "delete", "expire", "erase"]
"""What a change did: see :mod:`memvault.history` for the life cycle."""
HISTORY_EVENTS: tuple[HistoryEvent, ...] = get_args(HistoryEvent)


@dataclass(frozen=True)
class HistoryEntry:
    """One change to one memory, as :meth:`~memvault.MemoryStore.history` returns it.

    Attributes:
        namespace: The memory's namespace, e.g. ``("users", "alice")``.
        key: The memory's key.
        event: ``"add"`` (nothing live was there), ``"update"`` (a live version was replaced),
            ``"merge"`` (an update that merged a duplicate into it), ``"delete"`` (removed
            while live), ``"expire"`` (removed, or replaced, after its TTL ran out) or
            ``"erase"`` (removed with every value its history held: the key's earlier
            entries keep their event, time and source, with ``before`` and ``after``
            ``None``).
        at: When, in Unix seconds (UTC) by the store's clock; for ``"expire"``, when the
            memory expired (its ``expires_at``) if it had.
        before: The value before the change; ``None`` for ``"add"``.
        after: The value after the change; ``None`` for ``"delete"`` and ``"expire"``.
        source: Who made the change: ``"api"`` (a direct call), ``"tool"``, ``"extractor"``,
            ``"turn"``, ``"import"``, ``"cleanup"``, ``"restore"`` (re-created when a lost
            record file was rebuilt), or a caller's own identifier.
    """

    namespace: Namespace
    key: str
    event: HistoryEvent
    at: float
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    source: str

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object (namespace as a list), as an export file holds it."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "event": self.event,
            "at": self.at,
            "before": self.before,
            "after": self.after,
            "source": self.source,
        }


@dataclass(frozen=True)
class Change:
    """How a write enters the history: given to ``Backend.upsert`` with its records.

    Attributes:
        source: Who writes (see :attr:`HistoryEntry.source`), checked by
            :func:`memvault.history.validate_source`.
        merge: Record ``"merge"`` instead of ``"update"`` where a live version is replaced
            (``"add"`` where none is).
        imported_history: History entries to write as they are, from an export file
            (:meth:`MemoryStore.import_jsonl <memvault.MemoryStore.import_jsonl>`). An entry
            equal to one already kept (and not repeated more often in ``imported_history``)
            is skipped, so importing an export into its own store again adds nothing; a
            record whose key's history then ends with its value gets no entry of its own.
        expected: A compare-and-set's condition: ``(record id, updated_at)`` pairs, the
            ``updated_at`` (Unix seconds) each of those records' stored version must have for
            the write to go ahead, ``None`` where no live version may be there. Checked by the
            backend in the step that reads the versions it replaces
            (:func:`memvault.compare_and_set.check_expected`); records not named write as
            they are.
    """

    source: str = "api"
    merge: bool = False
    imported_history: tuple[HistoryEntry, ...] = field(default=())
    expected: tuple[tuple[str, float | None], ...] = field(default=())
