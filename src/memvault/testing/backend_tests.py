"""Every method of the :class:`~memvault.backends.base.Backend` protocol, called directly.

Each test writes records with chosen times and embeddings straight into a backend and checks
what every read returns against :mod:`memvault.testing.oracle`: liveness at ``now`` (an item
expiring exactly then is expired), namespace prefixes segment by segment, filters, order
(ties by id), limits and offsets, cosine similarities of the vectors written, BM25 results
that share a word with the query, and both rankings of a hybrid search fetched in one call
equal to each fetched alone. Records carry their validity (``valid_from``, ``valid_to``) as
written, every read returns only what its :class:`~memvault.model.Validity` admits, and an
erase (``delete(..., erase=True)``) leaves no value in the history.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from memvault.backends.base import Backend
from memvault.errors import ConflictError, InvalidArgumentError, StoreClosedError
from memvault.filters import normalize_filter
from memvault.model import (
    Change,
    Clauses,
    HistoryEntry,
    Namespace,
    Ranked,
    Record,
    SearchRequest,
    Validity,
    Vector,
    record_id,
)
from memvault.testing.base import ContractBase
from memvault.testing.clock import DEFAULT_START
from memvault.testing.oracle import (
    bm25_score,
    bm25_statistics,
    filter_matches,
    holds_during,
    in_scope,
    is_live,
    searched_text,
    shares_query_word,
)

T0 = DEFAULT_START
"""When the records of a test were first written, Unix seconds."""
NOW = T0 + 1000.5
"""The ``now`` of every read of the corpus, Unix seconds."""
CURRENT = Validity(since=NOW)
"""What every read asks of validity unless it tests validity: what holds at ``NOW``."""
API = Change("api")
"""How the tests' writes enter the history."""
SCORE_TOLERANCE = 1e-4
"""How far a backend's cosine similarity may be from the one computed in float64."""


@dataclass(frozen=True)
class _Row:
    namespace: Namespace
    key: str
    value: dict[str, Any]
    updated: float  # seconds after T0
    expires: float | None  # seconds after NOW, None: never


_CORPUS = [
    _Row(("u", "a"), "k1", {"text": "tea dog", "n": 1, "kind": "fact"}, 10.25, None),
    _Row(("u", "a"), "k2", {"text": "dog rain", "n": 2.5, "kind": "turn"}, 20.0, 50.0),
    _Row(("u", "ab"), "k1", {"text": "tea piano", "n": "2", "kind": "turn"}, 20.0, None),
    _Row(("u", "a", "x"), "k3", {"text": "lisbon nurse", "n": 3, "flag": True}, 30.0, -1.0),
    _Row(("u", "a", "x"), "k4", {"text": "rain rain tea", "n": True, "kind": "fact"}, 5.0, 0.0),
    _Row(("u", "a", "x"), "k5", {"text": "nurse tea", "n": 0, "flag": False}, 15.0, 0.25),
    _Row(("v",), "k1", {"text": "piano tea", "n": 0, "nested": {"n": 1}}, 40.0, None),
    _Row(("u",), "k/6", {"text": "nurse dog tea", "n": None, "kind": "fact"}, 40.0, 1000.0),
    _Row(("ua",), "k7", {"text": "dog", "n": 2, "tags": ["tea"]}, 25.0, None),
    _Row(("u", "a"), "k8", {"text": "tea dog", "n": 1, "kind": "fact"}, 10.25, None),
    _Row(("v",), "k9", {"text": "the rain", "context": "lisbon piano"}, 35.0, None),
    _Row(("w",), "k10", {"text": "tea tea", "kind": "fact"}, 45.0, -0.5),
]
"""Records whose reads the tests check: live, expired (one exactly at ``NOW``), nested
namespaces with look-alike segments (``("u", "a")``, ``("u", "ab")``, ``("ua",)``), a
namespace holding only an expired record (``("w",)``), equal update times and equal texts."""

PREFIXES: list[Namespace] = [
    (),
    ("u",),
    ("u", "a"),
    ("u", "ab"),
    ("u", "a", "x"),
    ("ua",),
    ("v",),
    ("w",),
    ("nowhere",),
]
FILTERS: list[dict[str, Any] | None] = [
    None,
    {"n": {"$gt": 1}},
    {"n": {"$ne": 2}},
    {"kind": "fact"},
    {"n": {"$in": [0, "2"]}},
    {"flag": False},
    {"n": {"$nin": [1]}},
    {"kind": "fact", "n": {"$lte": 1}},
]
PAGES = [(1, 0), (3, 1), (50, 0)]
"""``(limit, offset)`` pairs read."""
LIMITS = [1, 3, 50]
"""``limit`` of ranked reads, taken in turn, so that each prefix and each filter meets each."""
QUERIES = ["tea", "dog rain", "where is the nurse", "piano lisbon", "zebra"]


@dataclass(frozen=True)
class _Span:
    namespace: Namespace
    key: str
    text: str
    kind: str
    updated: float  # seconds after T0
    valid_from: float  # seconds after T0
    valid_to: float | None  # seconds after T0, None: still holds
    expires: float | None = None  # seconds after NOW, None: never


_SPANS = [
    _Span(("h",), "lisbon", "home lisbon", "home", 600.0, -1000.0, 500.0),
    _Span(("h",), "porto", "home porto", "home", 600.0, 500.0, None),
    _Span(("h",), "nurse", "nurse", "job", 10.0, -2000.0, None),
    _Span(("h",), "ended", "lisbon lisbon", "job", 800.0, 0.0, NOW - T0),
    _Span(("h",), "expired", "home lisbon", "home", 900.0, -1000.0, None, -1.0),
    _Span(("h", "x"), "braga", "home braga", "home", 700.0, -3000.0, -1000.0),
    _Span(("h", "x"), "plan", "plan lisbon", "home", 20.0, 1500.0, None),
    _Span(("h", "x"), "rain", "rain lisbon", "job", 30.0, -500.0, 1500.0),
    _Span(("i",), "lisbon", "home lisbon", "home", 600.0, -1000.0, 500.0),
]
"""Records whose validity the tests check: Lisbon closed when Porto began (written later, as
a supersede writes), one closed long ago, one that begins after ``NOW`` (a plan), one that
ends after it, one that ended exactly at ``NOW``, one valid but expired. Closed records rank
first in recency and in similarity to ``"lisbon"``, so a read that applies validity after
its limit returns too few."""

_VALIDITIES = [
    CURRENT,
    Validity(T0 + 250, T0 + 250),
    Validity(T0 + 500, T0 + 500),
    Validity(T0 - 1500),
    Validity(T0 - 1000, T0 - 1000),
    Validity(T0 - 5000, T0 - 4000),
    Validity(T0 + 2000, T0 + 2000),
]
"""Validities read: what holds at ``NOW`` (the default); as of a time before Porto (Lisbon,
not Porto) and of Porto's first second (Porto, not Lisbon); since a period's start (both,
and Braga); as of Lisbon's first second and Braga's last (Lisbon, not Braga); a span before
anything held; as of a time to come (the plan, not the rain)."""

_SPAN_PREFIXES: list[Namespace] = [(), ("h",), ("h", "x"), ("i",)]
_SPAN_FILTERS: list[dict[str, Any] | None] = [None, {"kind": "home"}]
_SPAN_QUERIES = ["lisbon", "porto nurse", "home"]
_VALIDITY_READS = ["recent", "dense", "dense_records", "lexical", "both_rankings", "search"]


def _vector(backend_test: ContractBase, text: str, scale: float) -> list[float]:
    return [scale * x for x in backend_test.make_embedder().embed_query(text)]


def _cosine(a: Vector, b: Vector) -> float:
    left, right = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(left @ right / (np.linalg.norm(left) * np.linalg.norm(right)))


def _ids(records: Sequence[Record | None]) -> list[str | None]:
    return [None if r is None else r.id for r in records]


def _check_ranking(
    found: Ranked, expected: dict[str, float | None], limit: int, *, case: str
) -> None:
    """Check a ranking against the ids that must be ranked, with their score if known.

    Exactly ``min(limit, len(expected))`` distinct ids, each expected, each score within
    :data:`SCORE_TOLERANCE` of the known one (else ``> 0``), best first and ties by id, and
    no expected id left out that scores above the last one returned.
    """
    ids = [i for i, _ in found]
    assert len(ids) == len(set(ids)), f"{case}: an id came back twice: {ids}"
    assert len(found) == min(limit, len(expected)), (
        f"{case}: {len(found)} hits, expected {min(limit, len(expected))}: {found}"
    )
    for i, score in found:
        assert i in expected, (
            f"{case}: {i} must not be found (out of scope, expired, filtered, not valid)"
        )
        known = expected[i]
        if known is None:
            assert score > 0, f"{case}: BM25 score of {i} is {score}, not > 0"
        else:
            assert score == pytest.approx(known, abs=SCORE_TOLERANCE), (
                f"{case}: score of {i} is {score}, expected {known}"
            )
    for (first, high), (second, low) in zip(found, found[1:]):
        assert high > low or (high == low and first < second), (
            f"{case}: not best first with ties by id: {found}"
        )
    if found and all(score is not None for score in expected.values()):
        floor = found[-1][1]
        missed = {
            i: s
            for i, s in expected.items()
            if i not in ids and s is not None and s > floor + SCORE_TOLERANCE
        }
        assert not missed, f"{case}: left out better matches {missed}"


class BackendTests(ContractBase):
    """Part of :class:`~memvault.testing.BackendContract`: the protocol, method by method.

    Every test takes a new backend from :meth:`make_backend` (fixture ``backend``) and calls
    its methods with explicit ``now`` times, embeddings and filter clauses (from
    :func:`memvault.filters.normalize_filter`, as the store passes them). Lexical tests skip
    when ``"lexical"`` is not in the backend's ``search_modes``.
    """

    def _fill(self, backend: Backend) -> dict[str, tuple[Record, list[float]]]:
        """Write :data:`_CORPUS` in one upsert at ``T0``; each vector scaled differently."""
        written: dict[str, tuple[Record, list[float]]] = {}
        records, vectors = [], []
        for number, row in enumerate(_CORPUS):
            record = Record(
                namespace=row.namespace,
                key=row.key,
                value=row.value,
                created_at=T0 + row.updated - 100.0,
                updated_at=T0 + row.updated,
                expires_at=None if row.expires is None else NOW + row.expires,
            )
            vector = _vector(self, searched_text(row.value), 0.5 + 0.75 * number)
            written[record.id] = (record, vector)
            records.append(record)
            vectors.append(vector)
        assert backend.upsert(records, vectors, now=T0, change=API) == records
        return written

    @staticmethod
    def _candidates(
        written: dict[str, tuple[Record, list[float]]],
        prefix: Namespace,
        filter: dict[str, Any] | None,
        now: float,
        valid: Validity | None = None,
    ) -> list[Record]:
        """The records a read of ``prefix`` with ``filter`` at ``now`` may return.

        With ``valid``, only those :func:`~memvault.testing.oracle.holds_during` admits.
        """
        return [
            record
            for record, _ in written.values()
            if in_scope(record.namespace, prefix)
            and is_live(record.expires_at, now)
            and filter_matches(record.value, filter)
            and (
                valid is None
                or holds_during(record.valid_from, record.valid_to, valid.since, valid.until)
            )
        ]

    def test_search_modes_are_declared(self, backend: Backend) -> None:
        """``search_modes`` holds ``"dense"``, and ``"hybrid"`` exactly when ``"lexical"``."""
        modes = tuple(backend.search_modes)
        assert "dense" in modes
        assert set(modes) <= {"hybrid", "dense", "lexical"}
        assert len(set(modes)) == len(modes)
        assert ("lexical" in modes) == ("hybrid" in modes)

    def test_reads_of_an_empty_backend_find_nothing(self, backend: Backend) -> None:
        """Every read of a new backend is empty, and its info is None."""
        query = _vector(self, "tea", 1.0)
        for prefix in [(), ("u",)]:
            assert backend.recent(prefix, clauses=[], now=NOW, valid=CURRENT, limit=5) == []
            assert (
                backend.dense(prefix, embedding=query, clauses=[], now=NOW, valid=CURRENT, limit=5)
                == []
            )
            assert backend.count(prefix, now=NOW) == 0
            assert backend.namespaces(prefix, now=NOW) == []
            assert list(backend.scan(prefix, now=None)) == []
            if "lexical" in backend.search_modes:
                assert (
                    backend.lexical("tea", prefix, clauses=[], now=NOW, valid=CURRENT, limit=5)
                    == []
                )
        assert backend.get([record_id(("u",), "k")]) == [None]
        assert backend.get_info() is None

    def test_upsert_returns_new_records_as_given_and_get_reads_them(self, backend: Backend) -> None:
        """New records come back unchanged, in order; ``get`` keeps order, None where absent.

        Values round-trip exactly (nested JSON, int versus float, unicode), and ids never
        collide for namespaces and keys holding separators, quotes or brackets.
        """
        value = {
            "text": "Ærø — 日本 ✓ tea",
            "nested": {"city": "Lisbon", "since": 2024, "tags": ["a"], "note": None},
            "list": [1, 2.5, "x", None, {"deep": [True, False]}],
            "empty": {},
            "zero": 0,
            "float": 1.0,
        }
        records = [
            Record(("a/b",), "c", value, T0, T0 + 0.5, None),
            Record(("a",), "b/c", {"text": "two"}, T0, T0, NOW + 0.125),
            Record(('a","b',), "c", {"text": "three"}, T0 - 1.5, T0, None),
            Record(("a", '","'), "c", {"text": "four"}, T0, T0, None),
            Record(("[",), "]", {"text": "five"}, T0, T0, None),
            Record(("a\\",), "b", {"text": "six"}, T0, T0, None),
        ]
        vectors = [_vector(self, searched_text(r.value), 1.0) for r in records]
        assert backend.upsert(records, vectors, now=T0, change=API) == records
        assert len({r.id for r in records}) == len(records)
        absent = record_id(("a",), "missing")
        got = backend.get([absent, records[0].id, records[3].id, absent, records[1].id])
        assert got == [None, records[0], records[3], None, records[1]]
        stored = got[1]
        assert stored is not None
        assert type(stored.value["zero"]) is int and type(stored.value["float"]) is float
        assert backend.get([]) == []
        assert backend.get([r.id for r in records]) == records
        assert backend.count((), now=T0) == len(records)

    def test_upsert_of_no_records_writes_nothing(self, backend: Backend) -> None:
        """``upsert([], [])`` returns ``[]`` and changes nothing."""
        assert backend.upsert([], [], now=T0, change=API) == []
        assert backend.count((), now=T0) == 0

    @pytest.mark.parametrize(
        ("expires_in", "kept"),
        [(None, True), (0.25, True), (0.0, False), (-1.0, False)],
        ids=["never-expires", "live", "expires-at-now", "expired"],
    )
    def test_upsert_keeps_created_at_of_a_version_live_at_now(
        self, backend: Backend, expires_in: float | None, kept: bool
    ) -> None:
        """A replaced version lends its ``created_at`` only if live at the upsert's ``now``.

        Everything else comes from the new record: value (old fields gone), ``updated_at``,
        ``expires_at``, embedding and indexed words.
        """
        old_text, new_text = "tea dog", "rain piano"
        first = Record(
            ("u", "a"),
            "k",
            {"text": old_text, "old": 1},
            T0,
            T0 + 1,
            None if expires_in is None else NOW + expires_in,
        )
        old_vector, new_vector = _vector(self, old_text, 2.0), _vector(self, new_text, 0.5)
        backend.upsert([first], [old_vector], now=T0 + 1, change=API)
        second = Record(("u", "a"), "k", {"text": new_text}, NOW, NOW, NOW + 60)
        (stored,) = backend.upsert([second], [new_vector], now=NOW, change=API)
        expected = replace(second, created_at=first.created_at) if kept else second
        assert stored == expected
        assert backend.get([second.id]) == [expected]
        assert backend.count((), now=NOW) == 1
        assert list(backend.scan((), now=None)) == [expected]
        hits = backend.dense((), embedding=old_vector, clauses=[], now=NOW, valid=CURRENT, limit=5)
        _check_ranking(hits, {second.id: _cosine(old_vector, new_vector)}, 5, case="dense")
        if "lexical" in backend.search_modes:
            assert backend.lexical("tea dog", (), clauses=[], now=NOW, valid=CURRENT, limit=5) == []
            assert _ids_of(
                backend.lexical("piano", (), clauses=[], now=NOW, valid=CURRENT, limit=5)
            ) == [second.id]
        assert (
            backend.recent(
                (), clauses=normalize_filter({"old": 1}), now=NOW, valid=CURRENT, limit=5
            )
            == []
        )

    def test_upsert_of_a_batch_replaces_and_inserts_in_order(self, backend: Backend) -> None:
        """One upsert of 30 records, new and replacing (live and expired), in input order."""
        early = [
            Record(("b", str(n % 3)), f"k{n}", {"text": "tea", "n": n}, T0, T0, T0 + 10 * n)
            for n in range(10)
        ]
        backend.upsert(early, [_vector(self, "tea", 1.0)] * len(early), now=T0, change=API)
        now = T0 + 40  # the versions n < 4 have expired, and n = 4 expires exactly now
        batch = [
            Record(("b", str(n % 3)), f"k{n}", {"text": "dog", "m": n}, now, now, None)
            for n in range(30)
        ]
        stored = backend.upsert(
            batch, [_vector(self, "dog", 1.0)] * len(batch), now=now, change=API
        )
        expected = [
            replace(r, created_at=T0) if n < 10 and T0 + 10 * n > now else r
            for n, r in enumerate(batch)
        ]
        assert stored == expected
        assert backend.get([r.id for r in batch]) == expected
        assert backend.count(("b",), now=now) == 30
        assert sorted(backend.namespaces(("b",), now=now)) == [("b", "0"), ("b", "1"), ("b", "2")]

    def test_upsert_checks_the_expected_versions_before_it_writes(self, backend: Backend) -> None:
        """``change.expected`` holds: a stale or unmet version raises and writes nothing.

        Only for backends that declare :attr:`~memvault.backends.Backend.supports_compare_and_set`.
        """
        if not backend.supports_compare_and_set:
            pytest.skip(f"{type(backend).__name__} declares no compare-and-set")
        tea = Record(("u",), "tea", {"text": "tea"}, T0, T0, None)
        dog = Record(("u",), "dog", {"text": "dog"}, T0, T0, None)
        vector = _vector(self, "tea", 1.0)
        backend.upsert([tea], [vector], now=T0, change=Change("api", expected=((tea.id, None),)))
        later = replace(tea, value={"text": "green tea"}, updated_at=T0 + 1)
        for stale in (None, T0 - 1):
            with pytest.raises(ConflictError):
                backend.upsert(
                    [dog, later],
                    [vector, vector],
                    now=T0 + 1,
                    change=Change("api", expected=((tea.id, stale),)),
                )
        assert backend.get([tea.id, dog.id]) == [tea, None]
        assert [e.event for e in backend.history(("u",), "tea")] == ["add"]
        stored = backend.upsert(
            [later], [vector], now=T0 + 1, change=Change("api", expected=((tea.id, T0),))
        )
        assert stored == [later] and backend.get([tea.id]) == [later]

    def test_delete_checks_the_expected_versions_before_it_deletes(self, backend: Backend) -> None:
        """A delete's ``expected`` holds: a stale, absent or expired version deletes nothing.

        Only for backends that declare :attr:`~memvault.backends.Backend.supports_compare_and_set`.
        """
        if not backend.supports_compare_and_set:
            pytest.skip(f"{type(backend).__name__} declares no compare-and-set")
        tea = Record(("u",), "tea", {"text": "tea"}, T0, T0, None)
        dog = Record(("u",), "dog", {"text": "dog"}, T0, T0, None)
        brief = Record(("u",), "brief", {"text": "brief"}, T0, T0, T0 + 1)
        vector = _vector(self, "tea", 1.0)
        backend.upsert([tea, dog, brief], [vector] * 3, now=T0, change=API)
        absent = record_id(("u",), "absent")
        for expected in ((tea.id, T0 - 1), (absent, T0), (brief.id, T0)):
            with pytest.raises(ConflictError):
                backend.delete(
                    [dog.id, tea.id, absent, brief.id],
                    now=T0 + 2,
                    source="api",
                    expected=(expected,),
                )
        assert backend.get([tea.id, dog.id, brief.id]) == [tea, dog, brief]
        assert [e.event for e in backend.history(("u",), "dog")] == ["add"]
        backend.delete([dog.id, tea.id], now=T0 + 2, source="api", expected=((tea.id, T0),))
        assert backend.get([tea.id, dog.id]) == [None, None]
        assert [e.event for e in backend.history(("u",), "tea")] == ["add", "delete"]

    def test_embeddings_are_those_written_with_the_records(self, backend: Backend) -> None:
        """``embeddings`` reads back the embedding of each id's latest version (cosine 1).

        ``None`` where absent, one per id given; a backend that does not declare
        :attr:`~memvault.backends.Backend.returns_embeddings` refuses.
        """
        absent = record_id(("u",), "absent")
        if not backend.returns_embeddings:
            with pytest.raises(InvalidArgumentError, match="returns_embeddings"):
                backend.embeddings([absent])
            return
        written = self._fill(backend)
        ids = list(written)
        got = backend.embeddings([absent, *ids, absent])
        assert len(got) == len(ids) + 2 and got[0] is None and got[-1] is None
        for item_id, vector in zip(ids, got[1:]):
            assert vector is not None, item_id
            assert _cosine(vector, written[item_id][1]) == pytest.approx(1.0, abs=1e-5), item_id
        record, _ = written[ids[0]]
        replaced = _vector(self, "another text", 3.0)
        backend.upsert(
            [replace(record, value={"text": "another text"})], [replaced], now=T0, change=API
        )
        (vector,) = backend.embeddings([ids[0]])
        assert vector is not None and _cosine(vector, replaced) == pytest.approx(1.0, abs=1e-5)
        assert backend.embeddings([]) == []

    def test_get_returns_expired_records_too(self, backend: Backend) -> None:
        """``get`` ignores expiry: the caller decides what an expired record means."""
        record = Record(("u",), "k", {"text": "tea"}, T0, T0, T0 + 1)
        backend.upsert([record], [_vector(self, "tea", 1.0)], now=T0, change=API)
        assert backend.get([record.id]) == [record]

    def test_delete_removes_the_ids_given_from_every_read(self, backend: Backend) -> None:
        """Deleted records leave every read; absent ids and ``delete([])`` are ignored.

        A key written again after its delete starts anew (its old ``created_at`` is gone).
        """
        written = self._fill(backend)
        gone = [record_id(("u", "a"), "k1"), record_id(("v",), "k1"), record_id(("v",), "k9")]
        backend.delete([gone[0], record_id(("u", "a"), "absent"), *gone[1:]], now=NOW, source="api")
        backend.delete([], now=NOW, source="api")
        backend.delete([record_id(("nowhere",), "k")], now=NOW, source="api")
        remaining = {i: pair for i, pair in written.items() if i not in gone}
        assert backend.get([*gone, *remaining]) == [None] * len(gone) + [
            record for record, _ in remaining.values()
        ]
        live = self._candidates(remaining, (), None, NOW)
        assert backend.count((), now=NOW) == len(live)
        assert ("v",) not in backend.namespaces((), now=NOW)
        assert sorted(r.id for r in backend.scan((), now=None)) == sorted(remaining)
        recent = backend.recent((), clauses=[], now=NOW, valid=CURRENT, limit=50)
        assert {r.id for r in recent} == {r.id for r in live}
        query = _vector(self, "tea dog piano", 1.0)
        dense = backend.dense((), embedding=query, clauses=[], now=NOW, valid=CURRENT, limit=50)
        assert {i for i, _ in dense} == {r.id for r in live}
        if "lexical" in backend.search_modes:
            lexical = backend.lexical("tea piano", (), clauses=[], now=NOW, valid=CURRENT, limit=50)
            assert not set(_ids_of(lexical)) & set(gone)
        again = Record(("v",), "k1", {"text": "tea"}, NOW, NOW, None)
        assert backend.upsert([again], [_vector(self, "tea", 1.0)], now=NOW, change=API) == [again]

    def test_recent_orders_live_matching_records_newest_first(self, backend: Backend) -> None:
        """``recent``: live records in scope matching the clauses, by ``updated_at`` descending.

        Ties go by id; ``offset`` and ``limit`` apply after the filter; a record expiring
        exactly at ``now`` is left out.
        """
        written = self._fill(backend)
        for prefix in PREFIXES:
            for filter in FILTERS:
                candidates = sorted(
                    self._candidates(written, prefix, filter, NOW),
                    key=lambda r: (-r.updated_at, r.id),
                )
                for limit, offset in PAGES:
                    found = backend.recent(
                        prefix,
                        clauses=normalize_filter(filter),
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                        offset=offset,
                    )
                    case = f"recent({prefix}, {filter}, limit={limit}, offset={offset})"
                    assert _ids(found) == _ids(candidates[offset : offset + limit]), case
                    assert found == candidates[offset : offset + limit], case

    def test_recent_follows_now(self, backend: Backend) -> None:
        """The same records read at other times: liveness is decided by ``now`` alone."""
        written = self._fill(backend)
        for now in [T0, NOW - 1, NOW, NOW + 0.25, NOW + 2000]:
            expected = sorted(
                self._candidates(written, (), None, now), key=lambda r: (-r.updated_at, r.id)
            )
            assert (
                backend.recent((), clauses=[], now=now, valid=Validity(now), limit=50) == expected
            ), now
            assert backend.count((), now=now) == len(expected), now

    def test_dense_scores_are_cosine_similarities(self, backend: Backend) -> None:
        """``dense`` ranks live matching records by the cosine of the vectors written.

        Vectors are written at different lengths and the query is scaled too, so a dot
        product instead of a cosine shows. Scope, expiry, clauses and ``limit`` apply.
        """
        written = self._fill(backend)
        limits = itertools.cycle(LIMITS)
        for number, text in enumerate(QUERIES):
            query = _vector(self, text, 2.5 + number)
            for prefix in PREFIXES:
                for filter in FILTERS:
                    expected: dict[str, float | None] = {
                        r.id: _cosine(written[r.id][1], query)
                        for r in self._candidates(written, prefix, filter, NOW)
                    }
                    limit = next(limits)
                    found = backend.dense(
                        prefix,
                        embedding=query,
                        clauses=normalize_filter(filter),
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                    )
                    case = f"dense({text!r}, {prefix}, {filter}, limit={limit})"
                    _check_ranking(found, expected, limit, case=case)

    def test_dense_ranks_equal_scores_by_id(self, backend: Backend) -> None:
        """Records with the same vector score the same and come back ordered by id."""
        vector = _vector(self, "tea dog", 1.0)
        records = [
            Record(namespace, key, {"text": "tea dog"}, T0, T0, None)
            for namespace, key in [
                (("t", "b"), "k"),
                (("t",), "z"),
                (("t", "a"), "k"),
                (("t",), "a"),
            ]
        ]
        other = Record(("t",), "other", {"text": "rain"}, T0, T0, None)
        backend.upsert(
            [*records, other], [vector] * 4 + [_vector(self, "rain", 1.0)], now=T0, change=API
        )
        ordered = sorted(r.id for r in records)
        found = backend.dense(("t",), embedding=vector, clauses=[], now=NOW, valid=CURRENT, limit=3)
        assert [i for i, _ in found] == ordered[:3]
        assert found[0][1] == found[1][1] == found[2][1] == pytest.approx(1.0, abs=SCORE_TOLERANCE)
        if "hybrid" in backend.search_modes:
            both = backend.both_rankings(
                "tea dog", ("t",), embedding=vector, clauses=[], now=NOW, valid=CURRENT, limit=3
            )
            assert both[0] == found

    def test_lexical_finds_the_records_sharing_a_query_word(self, backend: Backend) -> None:
        """``lexical`` returns live matching records holding a query word, BM25 > 0, best first.

        Function words count only when the query has nothing else; the text of
        ``value["context"]`` is searched too; ties go by id. Each score is the record's BM25
        with the statistics of the scope searched (:func:`~memvault.testing.oracle.bm25_score`):
        every record stored under the prefix counts in ``N`` and the mean length, expired
        ones waiting for cleanup included, and the live ones in each word's ``df``; a
        filter narrows the records returned, not the statistics.
        """
        if "lexical" not in backend.search_modes:
            pytest.skip(f"{type(backend).__name__} serves no lexical search (search_modes)")
        written = self._fill(backend)
        limits = itertools.cycle(LIMITS)
        for text in [*QUERIES, "the", "lisbon", "rain"]:
            for prefix in PREFIXES:
                stored = [r.value for r, _ in written.values() if in_scope(r.namespace, prefix)]
                live = [r.value for r in self._candidates(written, prefix, None, NOW)]
                statistics = bm25_statistics(stored, live, text)
                for filter in FILTERS:
                    expected: dict[str, float | None] = {
                        r.id: bm25_score(r.value, statistics)
                        for r in self._candidates(written, prefix, filter, NOW)
                        if shares_query_word(r.value, text)
                    }
                    limit = next(limits)
                    found = backend.lexical(
                        text,
                        prefix,
                        clauses=normalize_filter(filter),
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                    )
                    case = f"lexical({text!r}, {prefix}, {filter}, limit={limit})"
                    _check_ranking(found, expected, limit, case=case)

    def test_lexical_ranks_equal_scores_by_id(self, backend: Backend) -> None:
        """Records with the same text score the same BM25 and come back ordered by id."""
        if "lexical" not in backend.search_modes:
            pytest.skip(f"{type(backend).__name__} serves no lexical search (search_modes)")
        keys = ["z", "b", "m", "a"]
        records = [Record(("t",), key, {"text": "piano rain"}, T0, T0, None) for key in keys]
        backend.upsert(
            records, [_vector(self, "piano rain", 1.0)] * len(records), now=T0, change=API
        )
        found = backend.lexical("piano", ("t",), clauses=[], now=NOW, valid=CURRENT, limit=3)
        assert _ids_of(found) == sorted(r.id for r in records)[:3]
        assert found[0][1] == found[1][1] == found[2][1] > 0

    def test_lexical_takes_query_syntax_literally(self, backend: Backend) -> None:
        """Query operators and punctuation are words or nothing, never errors."""
        if "lexical" not in backend.search_modes:
            pytest.skip(f"{type(backend).__name__} serves no lexical search (search_modes)")
        written = self._fill(backend)
        for text in ['tea* AND "dog', "NEAR(piano rain) OR -lisbon", "nurse: ^tea", "!?", ""]:
            expected: dict[str, float | None] = {
                r.id: None
                for r in self._candidates(written, (), None, NOW)
                if shares_query_word(r.value, text)
            }
            found = backend.lexical(text, (), clauses=[], now=NOW, valid=CURRENT, limit=50)
            _check_ranking(found, expected, 50, case=f"lexical({text!r})")

    def test_both_rankings_are_what_dense_and_lexical_return(self, backend: Backend) -> None:
        """``both_rankings`` returns exactly ``(dense(...), lexical(...))`` of its arguments.

        For every query (one without words too), prefix, filter and limit of the corpus;
        skipped where ``"hybrid"`` is not in ``search_modes``.
        """
        if "hybrid" not in backend.search_modes:
            pytest.skip(f"{type(backend).__name__} serves no hybrid search (search_modes)")
        self._fill(backend)
        limits = itertools.cycle(LIMITS)
        for number, text in enumerate([*QUERIES, "the", "!?"]):
            query = _vector(self, QUERIES[number % len(QUERIES)], 2.5 + number)
            for prefix in PREFIXES:
                for filter in FILTERS:
                    clauses, limit = normalize_filter(filter), next(limits)
                    expected = (
                        backend.dense(
                            prefix,
                            embedding=query,
                            clauses=clauses,
                            now=NOW,
                            valid=CURRENT,
                            limit=limit,
                        ),
                        backend.lexical(
                            text, prefix, clauses=clauses, now=NOW, valid=CURRENT, limit=limit
                        ),
                    )
                    found = backend.both_rankings(
                        text,
                        prefix,
                        embedding=query,
                        clauses=clauses,
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                    )
                    case = f"both_rankings({text!r}, {prefix}, {filter}, limit={limit})"
                    assert found == expected, case

    def test_dense_records_are_dense_with_their_records(self, backend: Backend) -> None:
        """``dense_records`` returns ``dense(...)``'s ranking, each id with its record.

        For every query, prefix, filter and limit of the corpus; the records as ``get``
        returns them.
        """
        self._fill(backend)
        limits = itertools.cycle(LIMITS)
        for number, text in enumerate(QUERIES):
            query = _vector(self, text, 2.5 + number)
            for prefix in PREFIXES:
                for filter in FILTERS:
                    clauses, limit = normalize_filter(filter), next(limits)
                    ranked = backend.dense(
                        prefix,
                        embedding=query,
                        clauses=clauses,
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                    )
                    found = backend.dense_records(
                        prefix,
                        embedding=query,
                        clauses=clauses,
                        now=NOW,
                        valid=CURRENT,
                        limit=limit,
                    )
                    case = f"dense_records({text!r}, {prefix}, {filter}, limit={limit})"
                    assert [(record.id, score) for record, score in found] == ranked, case
                    assert [record for record, _ in found] == backend.get(
                        [item_id for item_id, _ in ranked]
                    ), case

    def test_search_pages_are_the_default_search_of_the_primitives(self, backend: Backend) -> None:
        """``search`` returns what the default :meth:`Backend.search` makes of the primitives.

        A backend answering a mode in fewer round trips overrides ``search``; its pages must
        stay those of the one order: every mode it serves (and no query), every query (one
        without words too), prefix and filter, pages within and past the top, with and
        without a period the query names.
        """
        written = self._fill(backend)
        created = sorted({record.created_at for record, _ in written.values()})
        named = ((created[1], created[len(created) // 2] + 1.0),)
        pages = itertools.cycle([*PAGES, (2, 3)])
        filters = itertools.cycle(FILTERS)
        for number, text in enumerate([*QUERIES, "the", "!?"]):
            query = np.asarray(_vector(self, QUERIES[number % len(QUERIES)], 2.5 + number))
            for mode in (None, *backend.search_modes):
                for prefix in PREFIXES:
                    filter, (limit, offset) = next(filters), next(pages)
                    for periods in ((), named) if mode == "hybrid" else ((),):
                        request = SearchRequest(
                            prefix=prefix,
                            mode=mode,
                            query=None if mode is None else text,
                            embedding=None if mode in (None, "lexical") else query,
                            clauses=normalize_filter(filter),
                            now=NOW,
                            limit=limit,
                            offset=offset,
                            periods=periods,
                        )
                        assert backend.search(request) == Backend.search(backend, request), (
                            f"search({text!r}, {mode}, {prefix}, {filter}, limit={limit}, "
                            f"offset={offset}, periods={periods})"
                        )

    def test_count_namespaces_and_scan_follow_scope_and_expiry(self, backend: Backend) -> None:
        """``count``, ``namespaces`` and ``scan`` cover a prefix segment-wise, live at ``now``.

        ``scan(now=None)`` also yields expired records; a namespace whose records have all
        expired is not listed.
        """
        written = self._fill(backend)
        for prefix in PREFIXES:
            live = self._candidates(written, prefix, None, NOW)
            everything = [r for r, _ in written.values() if in_scope(r.namespace, prefix)]
            assert backend.count(prefix, now=NOW) == len(live), prefix
            listed = backend.namespaces(prefix, now=NOW)
            assert len(listed) == len(set(listed)), f"{prefix}: a namespace twice: {listed}"
            assert sorted(listed) == sorted({r.namespace for r in live}), prefix
            by_id = sorted(backend.scan(prefix, now=NOW), key=lambda r: r.id)
            assert by_id == sorted(live, key=lambda r: r.id), prefix
            with_expired = sorted(backend.scan(prefix, now=None), key=lambda r: r.id)
            assert with_expired == sorted(everything, key=lambda r: r.id), prefix
        assert ("w",) not in backend.namespaces((), now=NOW)
        assert backend.namespaces(("w",), now=T0) == [("w",)]

    def test_info_round_trips_and_is_replaced(self, backend: Backend) -> None:
        """``set_info`` records a JSON object that ``get_info`` returns; a second replaces it."""
        assert backend.get_info() is None
        first = {
            "embedder": "memvault-hashing-64",
            "dim": 64,
            "fingerprint": [0.125, -0.5, 0.0],
            "nested": {"a": None, "b": [True, "ü"]},
        }
        backend.set_info(first)
        assert backend.get_info() == first
        second = {"embedder": "other", "dim": 8}
        backend.set_info(second)
        assert backend.get_info() == second

    def test_close_leaves_the_backend_unusable(self) -> None:
        """After ``close()`` every call raises :class:`~memvault.errors.StoreClosedError`."""
        backend = self.make_backend()
        record = Record(("u",), "k", {"text": "tea"}, T0, T0, None)
        vector = _vector(self, "tea", 1.0)
        backend.upsert([record], [vector], now=T0, change=API)
        backend.close()
        calls: dict[str, Callable[[], object]] = {
            "get": lambda: backend.get([record.id]),
            "upsert": lambda: backend.upsert([record], [vector], now=T0, change=API),
            "delete": lambda: backend.delete([record.id], now=NOW, source="api"),
            "recent": lambda: backend.recent((), clauses=[], now=T0, valid=Validity(T0), limit=1),
            "dense": lambda: backend.dense(
                (), embedding=vector, clauses=[], now=T0, valid=Validity(T0), limit=1
            ),
            "dense_records": lambda: backend.dense_records(
                (), embedding=vector, clauses=[], now=T0, valid=Validity(T0), limit=1
            ),
            "count": lambda: backend.count((), now=T0),
            "namespaces": lambda: backend.namespaces((), now=T0),
            "scan": lambda: list(backend.scan((), now=None)),
            "get_info": lambda: backend.get_info(),
            "history": lambda: backend.history(("u",), "k"),
            "history_under": lambda: list(backend.history_under(())),
            "set_info": lambda: backend.set_info({"dim": 64}),
        }
        if "lexical" in backend.search_modes:
            calls["lexical"] = lambda: backend.lexical(
                "tea", (), clauses=[], now=T0, valid=Validity(T0), limit=1
            )
        if "hybrid" in backend.search_modes:
            calls["both_rankings"] = lambda: backend.both_rankings(
                "tea", (), embedding=vector, clauses=[], now=T0, valid=Validity(T0), limit=1
            )
        wrong = {}
        for name, call in calls.items():
            try:
                call()
            except StoreClosedError:
                continue
            except Exception as error:  # noqa: BLE001 - report every call that misbehaves
                wrong[name] = f"raised {type(error).__name__}: {error}"
            else:
                wrong[name] = "did not raise"
        assert not wrong, f"after close(), calls must raise StoreClosedError: {wrong}"

    def test_history_records_each_change_of_a_key(self, backend: Backend) -> None:
        """Every write records its changes: add, update, merge, delete, expire, add again.

        A replaced or deleted version that had expired at ``now`` gives ``"expire"`` at its
        ``expires_at``; deleting an absent key records nothing; entries come oldest first,
        ties in the order written; the history outlives the record.
        """
        ns, vector = ("u", "a"), _vector(self, "tea", 1.0)

        def version(text: str, at: float, expires: float | None = None) -> Record:
            return Record(ns, "k", {"text": text}, at, at, expires)

        def wrap(text: str | None) -> dict[str, Any] | None:
            return None if text is None else {"text": text}

        def entry(event: Any, at: float, before: Any, after: Any, source: str) -> HistoryEntry:
            return HistoryEntry(ns, "k", event, at, wrap(before), wrap(after), source)

        backend.upsert([version("one", T0)], [vector], now=T0, change=Change("tool"))
        backend.upsert([version("two", T0)], [vector], now=T0, change=API)
        backend.upsert([version("three", T0 + 1)], [vector], now=T0 + 1, change=Change(merge=True))
        backend.delete([record_id(ns, "k")], now=T0 + 2, source="cleanup")
        backend.delete([record_id(ns, "k")], now=T0 + 3, source="api")
        backend.upsert([version("four", T0 + 4, T0 + 5)], [vector], now=T0 + 4, change=API)
        backend.upsert([version("five", T0 + 9, T0 + 10)], [vector], now=T0 + 9, change=API)
        backend.delete([record_id(ns, "k")], now=T0 + 20, source="cleanup")
        backend.upsert([version("six", T0 + 30)], [vector], now=T0 + 30, change=Change(merge=True))
        assert backend.history(ns, "k") == [
            entry("add", T0, None, "one", "tool"),
            entry("update", T0, "one", "two", "api"),
            entry("merge", T0 + 1, "two", "three", "api"),
            entry("delete", T0 + 2, "three", None, "cleanup"),
            entry("add", T0 + 4, None, "four", "api"),
            entry("expire", T0 + 5, "four", None, "api"),
            entry("add", T0 + 9, None, "five", "api"),
            entry("expire", T0 + 10, "five", None, "cleanup"),
            entry("add", T0 + 30, None, "six", "api"),
        ]
        assert backend.history(ns, "absent") == []

    def test_history_is_scoped_to_its_namespace_exactly(self, backend: Backend) -> None:
        """One key in look-alike namespaces has one history each; nothing is read across."""
        vector = _vector(self, "tea", 1.0)
        spaces: list[Namespace] = [("u",), ("u", "a"), ("u", "ab"), ("ua",)]
        records = [Record(ns, "k", {"text": "/".join(ns)}, T0, T0, None) for ns in spaces]
        backend.upsert(records, [vector] * len(records), now=T0, change=API)
        backend.delete([record_id(("u", "a"), "k")], now=T0 + 1, source="api")
        for record in records:
            found = backend.history(record.namespace, "k")
            assert [e.namespace for e in found] == [record.namespace] * len(found)
            assert found[0] == HistoryEntry(
                record.namespace, "k", "add", T0, None, record.value, "api"
            )
            assert len(found) == (2 if record.namespace == ("u", "a") else 1)
        assert backend.history(("u", "a", "x"), "k") == []
        under = list(backend.history_under(("u", "a")))
        assert [(e.namespace, e.event) for e in under] == [
            (("u", "a"), "add"),
            (("u", "a"), "delete"),
        ]
        assert {e.namespace for e in backend.history_under(("u",))} == set(spaces[:3])
        assert len(list(backend.history_under(()))) == 5

    def test_imported_history_is_written_once_as_given(self, backend: Backend) -> None:
        """Imported entries (``Change.imported_history``) stand in place of the write's own.

        They are kept as they are. A key with imported entries gets none of its own; a key
        with no record (deleted) keeps its imported entries; importing the same entries again
        adds nothing, while an entry repeated in one import is kept as often; a key without
        imported entries gets its ``"add"``, and nothing when its value is written again.
        """
        ns, vector = ("u",), _vector(self, "tea", 1.0)
        live = [
            HistoryEntry(ns, "k", "add", T0, None, {"text": "a"}, "tool"),
            HistoryEntry(ns, "k", "update", T0 + 1, {"text": "a"}, {"text": "b"}, "api"),
            HistoryEntry(ns, "k", "update", T0 + 1, {"text": "a"}, {"text": "b"}, "api"),
        ]
        gone = [
            HistoryEntry(ns, "old", "add", T0, None, {"text": "x"}, "api"),
            HistoryEntry(ns, "old", "delete", T0 + 2, {"text": "x"}, None, "extractor"),
        ]
        record = Record(ns, "k", {"text": "b"}, T0, T0 + 1, None)
        other = Record(ns, "new", {"text": "n"}, T0, T0, None)
        imported = Change("import", imported_history=(*live, *gone))
        for _ in range(2):
            backend.upsert([record, other], [vector, vector], now=NOW, change=imported)
            assert backend.history(ns, "k") == live
            assert backend.history(ns, "old") == gone
        # written twice with the same value: the second write is no change of value
        assert [(e.event, e.source) for e in backend.history(ns, "new")] == [("add", "import")]
        again = Change("import", imported_history=tuple(gone))
        assert backend.upsert([], [], now=NOW, change=again) == []
        assert backend.history(ns, "old") == gone
        assert backend.get([record_id(ns, "old")]) == [None]

    # -- validity -------------------------------------------------------------------------

    def test_validity_fields_round_trip(self, backend: Backend) -> None:
        """``valid_from`` and ``valid_to`` come back as written, from upsert, get and scan.

        A record built without ``valid_from`` holds from its ``updated_at``; a ``valid_to``
        is kept, and ``None`` stays ``None``; a version replacing another takes the new
        record's validity (an upsert closes a record, the next opens it again), while
        ``created_at`` is kept as ever.
        """
        plain = Record(("u",), "plain", {"text": "tea"}, T0, T0 + 1, None)
        assert (plain.valid_from, plain.valid_to) == (T0 + 1, None)
        closed = Record(("u",), "closed", {"text": "dog"}, T0, T0, None, T0 - 86400.25, T0 + 0.5)
        coming = Record(
            ("u", "x"), "coming", {"text": "rain"}, T0, T0, NOW + 10, valid_from=NOW + 3600.125
        )
        records = [plain, closed, coming]
        vectors = [_vector(self, searched_text(r.value), 1.0) for r in records]
        assert backend.upsert(records, vectors, now=T0, change=API) == records
        got = backend.get([r.id for r in records])
        assert got == records
        assert [(r.valid_from, r.valid_to) for r in got if r is not None] == [
            (T0 + 1, None),
            (T0 - 86400.25, T0 + 0.5),
            (NOW + 3600.125, None),
        ]
        scanned = sorted(backend.scan((), now=None), key=lambda r: r.id)
        assert scanned == sorted(records, key=lambda r: r.id)
        closing = replace(plain, updated_at=T0 + 2, valid_to=T0 + 2)
        assert backend.upsert([closing], vectors[:1], now=T0 + 2, change=API) == [closing]
        assert backend.get([plain.id]) == [closing]
        reopened = replace(closing, updated_at=T0 + 3, valid_from=T0 + 3, valid_to=None)
        assert backend.upsert([reopened], vectors[:1], now=T0 + 3, change=API) == [reopened]
        assert backend.get([plain.id]) == [reopened]
        scanned = sorted(backend.scan(("u",), now=T0 + 3), key=lambda r: r.id)
        assert scanned == sorted([reopened, closed, coming], key=lambda r: r.id)

    def _fill_spans(self, backend: Backend) -> dict[str, tuple[Record, list[float]]]:
        """Write :data:`_SPANS` in one upsert at ``T0``; each vector scaled differently."""
        written: dict[str, tuple[Record, list[float]]] = {}
        for number, span in enumerate(_SPANS):
            record = Record(
                namespace=span.namespace,
                key=span.key,
                value={"text": span.text, "kind": span.kind},
                created_at=T0 + span.updated - 100.0,
                updated_at=T0 + span.updated,
                expires_at=None if span.expires is None else NOW + span.expires,
                valid_from=T0 + span.valid_from,
                valid_to=None if span.valid_to is None else T0 + span.valid_to,
            )
            written[record.id] = (record, _vector(self, span.text, 0.5 + 0.75 * number))
        records = [record for record, _ in written.values()]
        vectors = [vector for _, vector in written.values()]
        assert backend.upsert(records, vectors, now=T0, change=API) == records
        return written

    @pytest.mark.parametrize("read", _VALIDITY_READS)
    def test_reads_return_what_the_validity_admits(self, backend: Backend, read: str) -> None:
        """Each read returns exactly the live matching records its ``valid`` admits.

        ``recent``, ``dense``, ``dense_records``, ``lexical``, ``both_rankings`` (where
        ``search_modes`` serve them) and ``search`` of a
        :class:`~memvault.model.SearchRequest` in every mode and without a query, each with
        every validity of :data:`_VALIDITIES`: what holds now leaves closed records out;
        ``Validity(T, T)`` at a past time returns the old record and not the new; a
        ``Validity(since=start)`` returns both. Validity is applied inside the query, before
        ``limit`` and ``offset``, as a filter is (the closed records rank first).
        """
        modes = backend.search_modes
        if read == "lexical" and "lexical" not in modes:
            pytest.skip(f"{type(backend).__name__} serves no lexical search (search_modes)")
        if read == "both_rankings" and "hybrid" not in modes:
            pytest.skip(f"{type(backend).__name__} serves no hybrid search (search_modes)")
        written = self._fill_spans(backend)
        limits, pages = itertools.cycle(LIMITS), itertools.cycle(PAGES)
        for valid, prefix, filter in itertools.product(_VALIDITIES, _SPAN_PREFIXES, _SPAN_FILTERS):
            asked = _Asked(
                prefix=prefix,
                clauses=normalize_filter(filter),
                valid=valid,
                candidates=self._candidates(written, prefix, filter, NOW, valid),
                case=f"{read}({prefix}, {filter}, valid={valid})",
            )
            if read == "recent":
                for page in PAGES:
                    _check_recent_page(backend, asked, page)
                continue
            for number, text in enumerate(_SPAN_QUERIES):
                query = _vector(self, text, 2.5 + number)
                if read == "search":
                    _check_search_pages(backend, asked, written, text, query, next(pages))
                else:
                    _check_ranked_read(backend, read, asked, written, text, query, next(limits))

    # -- erase ----------------------------------------------------------------------------

    def test_erase_keeps_no_value_in_the_history(self, backend: Backend) -> None:
        """``delete(erase=True)`` removes the record and every value its history held.

        ``get`` returns None and no read finds it; each history entry of the key keeps its
        event, time and source with ``before`` and ``after`` ``None``, and an ``"erase"``
        entry at ``now`` ends it, in place of ``"delete"`` (and of ``"expire"`` for an
        expired record); ``history_under`` reads the same entries. A key written again
        afterwards starts a history of values anew.
        """
        ns = ("u", "a")
        vector = _vector(self, "diabetes", 1.0)
        first = Record(ns, "k", {"text": "diabetes"}, T0, T0, None)
        second = replace(first, value={"text": "diabetes type two"}, updated_at=T0 + 1)
        brief = Record(ns, "brief", {"text": "insulin"}, T0, T0, T0 + 1.5)
        backend.upsert([first, brief], [vector, vector], now=T0, change=Change("tool"))
        backend.upsert([second], [vector], now=T0 + 1, change=API)
        absent = record_id(ns, "absent")
        backend.delete([first.id, brief.id, absent], now=T0 + 2, source="user", erase=True)
        assert backend.get([first.id, brief.id]) == [None, None]
        expected = [
            HistoryEntry(ns, "k", "add", T0, None, None, "tool"),
            HistoryEntry(ns, "k", "update", T0 + 1, None, None, "api"),
            HistoryEntry(ns, "k", "erase", T0 + 2, None, None, "user"),
        ]
        assert backend.history(ns, "k") == expected
        assert backend.history(ns, "brief") == [
            HistoryEntry(ns, "brief", "add", T0, None, None, "tool"),
            HistoryEntry(ns, "brief", "erase", T0 + 2, None, None, "user"),
        ]
        assert backend.history(ns, "absent") == []  # nothing was there: nothing recorded
        under = [e for e in backend.history_under(ns) if e.key == "k"]
        assert under == expected
        assert backend.count((), now=T0 + 2) == 0
        assert backend.recent((), clauses=[], now=T0 + 2, valid=Validity(T0 + 2), limit=5) == []
        assert (
            backend.dense(
                (), embedding=vector, clauses=[], now=T0 + 2, valid=Validity(T0 + 2), limit=5
            )
            == []
        )
        if "lexical" in backend.search_modes:
            assert (
                backend.lexical(
                    "diabetes insulin",
                    (),
                    clauses=[],
                    now=T0 + 2,
                    valid=Validity(T0 + 2),
                    limit=5,
                )
                == []
            )
        again = Record(ns, "k", {"text": "tea"}, T0 + 3, T0 + 3, None)
        backend.upsert([again], [vector], now=T0 + 3, change=API)
        assert backend.history(ns, "k") == [
            *expected,
            HistoryEntry(ns, "k", "add", T0 + 3, None, {"text": "tea"}, "api"),
        ]

    def test_erase_of_a_key_with_only_history_left_scrubs_it(self, backend: Backend) -> None:
        """Erasing a key deleted before (no record, a history) scrubs its history too.

        Its entries lose their values and an ``"erase"`` entry is recorded; erasing a key
        that never held anything records nothing.
        """
        ns, vector = ("u",), _vector(self, "secret", 1.0)
        record = Record(ns, "k", {"text": "secret"}, T0, T0, None)
        backend.upsert([record], [vector], now=T0, change=API)
        backend.delete([record.id], now=T0 + 1, source="api")
        assert [e.before for e in backend.history(ns, "k")] == [None, {"text": "secret"}]
        backend.delete([record.id, record_id(ns, "never")], now=T0 + 2, source="api", erase=True)
        assert backend.history(ns, "k") == [
            HistoryEntry(ns, "k", "add", T0, None, None, "api"),
            HistoryEntry(ns, "k", "delete", T0 + 1, None, None, "api"),
            HistoryEntry(ns, "k", "erase", T0 + 2, None, None, "api"),
        ]
        assert backend.history(ns, "never") == []
        assert [e.event for e in backend.history_under(())] == ["add", "delete", "erase"]

    def test_erase_leaves_the_history_of_other_keys(self, backend: Backend) -> None:
        """Erasing one key leaves every other key's records and history as they were.

        Other keys of its namespace, and the same key in look-alike namespaces (a parent, a
        child, ``("u", "ab")`` beside ``("u", "a")``), keep their values.
        """
        vector = _vector(self, "tea", 1.0)
        idents: list[tuple[Namespace, str]] = [
            (("u",), "k"),
            (("u", "a"), "k"),
            (("u", "a"), "k2"),
            (("u", "a", "x"), "k"),
            (("u", "ab"), "k"),
            (("ua",), "k"),
        ]
        for version in (1, 2):
            records = [
                Record(ns, key, {"text": f"{'/'.join(ns)} {key} v{version}"}, T0, T0, None)
                for ns, key in idents
            ]
            backend.upsert(records, [vector] * len(records), now=T0 + version, change=API)
        before = {ident: backend.history(*ident) for ident in idents}
        kept = [r for r in records if (r.namespace, r.key) != (("u", "a"), "k")]
        backend.delete([record_id(("u", "a"), "k")], now=T0 + 3, source="api", erase=True)
        for ident in idents:
            if ident == (("u", "a"), "k"):
                continue
            assert backend.history(*ident) == before[ident], ident
        assert backend.get([r.id for r in kept]) == kept
        assert [e.event for e in backend.history(("u", "a"), "k")] == ["add", "update", "erase"]
        others = [e for e in backend.history_under(()) if (e.namespace, e.key) != idents[1]]
        assert all(e.after is not None for e in others)


def _ids_of(ranked: Ranked) -> list[str]:
    return [i for i, _ in ranked]


@dataclass(frozen=True)
class _Asked:
    """One read of the validity tests: where, which, and the records it may return.

    Attributes:
        prefix: The namespace prefix read.
        clauses: Its filter, normalized.
        valid: Its validity.
        candidates: The live records in scope that match and ``valid`` admits.
        case: How a failure names the read.
    """

    prefix: Namespace
    clauses: Clauses
    valid: Validity
    candidates: list[Record]
    case: str


def _check_recent_page(backend: Backend, asked: _Asked, page: tuple[int, int]) -> None:
    """``recent`` with ``asked.valid`` returns a page of the admitted records, newest first."""
    limit, offset = page
    ordered = sorted(asked.candidates, key=lambda r: (-r.updated_at, r.id))
    found = backend.recent(
        asked.prefix,
        clauses=asked.clauses,
        now=NOW,
        valid=asked.valid,
        limit=limit,
        offset=offset,
    )
    assert found == ordered[offset : offset + limit], f"{asked.case}, page {page}"


def _check_ranked_read(
    backend: Backend,
    read: str,
    asked: _Asked,
    written: dict[str, tuple[Record, list[float]]],
    text: str,
    query: list[float],
    limit: int,
) -> None:
    """``dense``, ``dense_records``, ``lexical`` or ``both_rankings`` rank admitted records.

    Dense rankings hold the ``limit`` best cosines of the admitted records; lexical ones
    the admitted records sharing a word with ``text``.
    """
    dense: dict[str, float | None] = {
        r.id: _cosine(written[r.id][1], query) for r in asked.candidates
    }
    lexical: dict[str, float | None] = {
        r.id: None for r in asked.candidates if shares_query_word(r.value, text)
    }
    case = f"{asked.case} for {text!r}, limit={limit}"
    where: dict[str, Any] = {
        "clauses": asked.clauses,
        "now": NOW,
        "valid": asked.valid,
        "limit": limit,
    }
    if read == "dense":
        found = backend.dense(asked.prefix, embedding=query, **where)
        _check_ranking(found, dense, limit, case=case)
    elif read == "dense_records":
        pairs = backend.dense_records(asked.prefix, embedding=query, **where)
        _check_ranking([(r.id, score) for r, score in pairs], dense, limit, case=case)
        assert [r for r, _ in pairs] == [written[r.id][0] for r, _ in pairs], case
    elif read == "lexical":
        _check_ranking(backend.lexical(text, asked.prefix, **where), lexical, limit, case=case)
    else:
        both = backend.both_rankings(text, asked.prefix, embedding=query, **where)
        _check_ranking(both[0], dense, limit, case=f"dense of {case}")
        _check_ranking(both[1], lexical, limit, case=f"lexical of {case}")


def _check_search_pages(
    backend: Backend,
    asked: _Asked,
    written: dict[str, tuple[Record, list[float]]],
    text: str,
    query: list[float],
    page: tuple[int, int],
) -> None:
    """``search`` with ``asked.valid``, in every mode and without a query, finds admitted records.

    Each page is what :meth:`Backend.search` makes of the primitives, holds only records
    ``valid`` admits (as written; for ``"lexical"``, those sharing a word with ``text``) and
    is as long as they allow.
    """
    limit, offset = page
    allowed = {r.id for r in asked.candidates}
    matching = {r.id for r in asked.candidates if shares_query_word(r.value, text)}
    for mode in (None, *backend.search_modes):
        request = SearchRequest(
            prefix=asked.prefix,
            mode=mode,
            query=None if mode is None else text,
            embedding=None if mode in (None, "lexical") else np.asarray(query),
            clauses=asked.clauses,
            now=NOW,
            limit=limit,
            offset=offset,
            valid=asked.valid,
        )
        case = f"search {asked.case} for {text!r}, mode={mode}, limit={limit}, offset={offset}"
        found = backend.search(request)
        assert found == Backend.search(backend, request), case
        if mode is None:
            ordered = sorted(asked.candidates, key=lambda r: (-r.updated_at, r.id))
            assert [record for record, _ in found] == ordered[offset : offset + limit], case
            continue
        ids = [record.id for record, _ in found]
        pool = matching if mode == "lexical" else allowed
        assert len(ids) == len(set(ids)), f"{case}: an id came back twice: {ids}"
        assert set(ids) <= pool, f"{case}: {sorted(set(ids) - pool)} must not be found"
        assert len(ids) == min(limit, max(0, len(pool) - offset)), f"{case}: {ids}"
        assert [r for r, _ in found] == [written[i][0] for i in ids], case
