"""The store's behaviour on the backend under test, through :class:`~memvault.MemoryStore`.

Every store here is ``MemoryStore(backend=make_backend(), embedder=make_embedder(),
clock=clock.time)`` (fixtures ``store`` and ``new_store``): values round-trip, ids never
collide, prefixes are segment-wise, filters give their documented results, TTLs expire on the
fake clock, writes are all or nothing, export/import round-trips and every operation has an
async twin. Validity: ``valid_from``/``valid_to`` given in seconds or datetimes, ``supersede``
closing a memory and linking its replacement, searches of now, ``as_of`` and of a past period
a query names, and an erase that leaves no trace of the text in an export. Provenance: who wrote
each item's current version, through every read, a supersede and an export.
"""

from __future__ import annotations

import asyncio
import calendar
import json
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, cast

import pytest

from memvault.errors import (
    ConflictError,
    ImportFormatError,
    InvalidArgumentError,
    InvalidFilterError,
    InvalidKeyError,
    InvalidNamespaceError,
    InvalidValueError,
    ItemNotFoundError,
)
from memvault.items import MemoryItem
from memvault.model import Provenance
from memvault.store import MemoryStore
from memvault.testing.base import ContractBase, StoreFactory
from memvault.testing.clock import DEFAULT_START, FakeClock
from memvault.testing.oracle import filter_matches

ALICE = ("users", "alice")

FILTER_ITEMS: dict[str, dict[str, Any]] = {
    "a": {"text": "alpha", "n": 1, "kind": "note", "flag": True, "big": 2**53 + 1},
    "b": {"text": "beta", "n": 2.5, "kind": "fact"},
    "c": {"text": "gamma", "n": 3, "kind": "note", "flag": False},
    "d": {"text": "delta", "kind": "fact", "n": "3"},
    "e": {"text": "epsilon", "nested": {"n": 1}, "n": None},
}
FILTER_CASES: list[tuple[dict[str, Any] | None, set[str]]] = [
    ({"kind": "note"}, {"a", "c"}),
    ({"kind": {"$eq": "fact"}}, {"b", "d"}),
    ({"kind": {"$ne": "note"}}, {"b", "d"}),  # e lacks "kind": no match
    ({"n": {"$gt": 1}}, {"b", "c"}),  # the string "3" is not a number
    ({"n": {"$gte": 1, "$lt": 3}}, {"a", "b"}),
    ({"n": {"$lte": 2.5}}, {"a", "b"}),
    ({"n": 3.0}, {"c"}),  # int and float compare as numbers
    ({"n": "3"}, {"d"}),  # strings only equal strings
    ({"n": {"$in": [1, "3"]}}, {"a", "d"}),  # mixed types in one list
    ({"n": {"$nin": [1, 3]}}, {"b", "d"}),  # e (None) and missing never match
    ({"flag": True}, {"a"}),
    ({"flag": 1}, set()),  # bool only equals bool
    ({"n": 1}, {"a"}),  # ... and a number never equals True
    ({"flag": {"$ne": True}}, {"c"}),
    ({"kind": "note", "n": {"$gt": 2}}, {"c"}),  # several fields: AND
    ({"missing": {"$ne": 1}}, set()),
    ({"nested": {"$eq": 1}}, set()),  # dict fields are not filterable
    ({"big": 2**53}, {"a"}),  # numbers compare as 64-bit floats on every backend
    (None, set(FILTER_ITEMS)),
    ({}, set(FILTER_ITEMS)),
]
"""Filters with the keys of :data:`FILTER_ITEMS` they match, written out by hand."""

ROUND_TRIP_VALUE = {
    "text": "Alice moved to Lisbon in 2024",
    "nested": {"city": "Lisbon", "since": 2024, "tags": ["move", "city"], "note": None},
    "list": [1, 2.5, "x", None, {"deep": [True, False]}],
    "empty": {},
    "unicode": "Ærø — 日本 ✓",
    "flag": False,
    "zero": 0,
}

TRICKY_IDS = [
    (("a/b",), "c"),
    (("a",), "b/c"),
    (("a", "b"), "c"),
    (("a:b",), "c"),
    (("a",), "b:c"),
    (('a","b',), "c"),
    (("a", '","'), "c"),
    (("[",), "]"),
    (("a\\",), "b"),
    (("a",), "\\b"),
]

LISTED_NAMESPACES = [
    ("users", "alice"),
    ("users", "alice", "work"),
    ("users", "bob"),
    ("teams", "red", "work"),
]


def _provenance(store: MemoryStore, key: str) -> Provenance | None:
    """The provenance of the item at ``(ALICE, key)``, or ``None`` if there is none."""
    item = store.get(ALICE, key)
    return None if item is None else item.provenance


def _utc(year: int, month: int, day: int) -> float:
    """Midnight UTC of a day, in Unix seconds."""
    return float(calendar.timegm((year, month, day, 0, 0, 0)))


class StoreTests(ContractBase):
    """Part of :class:`~memvault.testing.BackendContract`: the store on the backend under test."""

    # -- values, keys and ids -------------------------------------------------------------

    def test_value_round_trips_exactly(self, store: MemoryStore) -> None:
        """A stored value comes back equal, with its JSON types (int stays int)."""
        stored = store.put(ALICE, "move", ROUND_TRIP_VALUE)
        got = store.get(ALICE, "move")
        assert isinstance(got, MemoryItem)
        assert got.value == ROUND_TRIP_VALUE
        assert type(got.value["zero"]) is int and type(got.value["list"][1]) is float
        assert got.namespace == ALICE and got.key == "move"
        assert got.created_at == stored.created_at and got.expires_at is None

    def test_overwrite_keeps_created_at_and_moves_updated_at(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """Overwriting replaces the whole value, keeps ``created_at``, moves ``updated_at``."""
        first = store.put(ALICE, "k", {"text": "first", "extra": 1})
        clock.advance(30)
        store.put(ALICE, "k", {"text": "second"})
        got = store.get(ALICE, "k")
        assert got is not None
        assert got.value == {"text": "second"}  # the old "extra" field is gone
        assert got.created_at == first.created_at
        assert got.updated_at == first.created_at + 30
        assert store.count() == 1

    def test_get_absent_is_none_and_delete_absent_is_a_no_op(self, store: MemoryStore) -> None:
        """Reading or deleting a key never written is fine; a deleted key reads as None."""
        assert store.get(ALICE, "missing") is None
        store.delete(ALICE, "missing")
        store.put(ALICE, "k", {"text": "x"})
        store.delete(ALICE, "k")
        assert store.get(ALICE, "k") is None
        assert store.count() == 0

    def test_every_tricky_pair_is_its_own_item(self, store: MemoryStore) -> None:
        """Keys and segments holding separators, quotes or brackets never collide."""
        for number, (namespace, key) in enumerate(TRICKY_IDS):
            store.put(namespace, key, {"text": f"item {number}", "number": number})
        assert store.count() == len(TRICKY_IDS)
        for number, (namespace, key) in enumerate(TRICKY_IDS):
            item = store.get(namespace, key)
            assert item is not None
            assert (item.namespace, item.key, item.value["number"]) == (namespace, key, number)

    # -- namespaces -----------------------------------------------------------------------

    def _fill_prefixes(self, store: MemoryStore) -> MemoryStore:
        for namespace in [("users", "al"), ALICE, ("users", "alice", "work"), ("users2",)]:
            store.put(namespace, "k", {"text": f"memory in {'/'.join(namespace)}"})
        return store

    def test_prefix_covers_namespace_and_below_only(self, store: MemoryStore) -> None:
        """Search and count cover a namespace and below it, segment by segment."""
        filled = self._fill_prefixes(store)
        found = {item.namespace for item in filled.search(ALICE)}
        assert found == {ALICE, ("users", "alice", "work")}
        assert filled.count(("users", "al")) == 1  # never matches ("users", "alice")
        assert filled.count(("users",)) == 3  # never matches ("users2",)
        assert filled.count() == 4

    def test_query_search_respects_prefix(self, store: MemoryStore) -> None:
        """A search with a query stays inside its prefix, segment by segment."""
        filled = self._fill_prefixes(store)
        found = {i.namespace for i in filled.search(("users", "al"), query="memory in users alice")}
        assert found == {("users", "al")}

    def test_bad_namespaces_name_the_segment(self, store: MemoryStore) -> None:
        """A bad namespace is refused with the segment named, and nothing is written."""
        cases: list[tuple[Any, str]] = [
            ((), "at least one segment"),
            (("users", ""), "segment 1 is empty"),
            (("users", 3), "segment 1 must be a str"),
            (("a\x00b",), "NUL"),
            ("users/alice", "tuple of strings"),
        ]
        for namespace, message in cases:
            with pytest.raises(InvalidNamespaceError, match=message):
                store.put(namespace, "k", {"text": "x"})
        assert store.count() == 0

    def test_list_namespaces_options(self, store: MemoryStore) -> None:
        """``list_namespaces`` with prefix, suffix, depth and paging, sorted."""
        for namespace in LISTED_NAMESPACES:
            store.put(namespace, "k", {"text": "x"})
        assert store.list_namespaces() == sorted(LISTED_NAMESPACES)
        assert store.list_namespaces(prefix=("users",)) == LISTED_NAMESPACES[:3]
        assert store.list_namespaces(suffix=("work",)) == [
            LISTED_NAMESPACES[3],
            LISTED_NAMESPACES[1],
        ]
        assert store.list_namespaces(max_depth=1) == [("teams",), ("users",)]
        assert store.list_namespaces(prefix=("users",), max_depth=2) == [
            ("users", "alice"),
            ("users", "bob"),
        ]
        assert store.list_namespaces(limit=2, offset=1) == sorted(LISTED_NAMESPACES)[1:3]

    # -- filters --------------------------------------------------------------------------

    @pytest.mark.parametrize(
        ("filter", "expected"), FILTER_CASES, ids=[str(c[0]) for c in FILTER_CASES]
    )
    def test_filter_results(
        self, store: MemoryStore, filter: dict[str, Any] | None, expected: set[str]
    ) -> None:
        """A filter gives its documented results, with and without a query."""
        assert {k for k, v in FILTER_ITEMS.items() if filter_matches(v, filter)} == expected
        store.put_many(("docs",), FILTER_ITEMS.items())
        assert {i.key for i in store.search(("docs",), filter=filter, limit=50)} == expected
        ranked = store.search(("docs",), query="alpha beta gamma", filter=filter, limit=50)
        assert {i.key for i in ranked} == expected

    @pytest.mark.parametrize(
        ("filter", "message"),
        [
            ({"n": {"$regex": "x"}}, "unknown operator"),
            ({"n": {"$gt": "3"}}, "needs a number"),
            ({"n": {"$in": []}}, "non-empty list"),
            ({"n": {"$in": [[1]]}}, "str, int, float or bool"),
            ({"$and": [{"n": 1}]}, "operators go inside"),
            ({"n": {}}, "empty condition"),
            ({"n": [1, 2]}, "str, int, float or bool"),
            ("n=1", "must be a dict"),
            ({"n": {"$gt": float("nan")}}, "needs a number"),
            ({"n": float("inf")}, "finite"),
            ({"n": {"$in": [1, float("-inf")]}}, "str, int, float or bool"),
        ],
    )
    def test_bad_filters_raise_with_the_field(
        self, store: MemoryStore, filter: Any, message: str
    ) -> None:
        """A bad filter raises :class:`~memvault.errors.InvalidFilterError` saying what is wrong."""
        with pytest.raises(InvalidFilterError, match=message):
            store.search(("docs",), filter=filter)

    # -- search ---------------------------------------------------------------------------

    def test_query_ranks_the_matching_memory_first(self, store: MemoryStore) -> None:
        """With a query the most similar item comes first; scores descend within [-1, 1]."""
        store.put(ALICE, "tea", {"text": "alice drinks green tea every morning"})
        store.put(ALICE, "dog", {"text": "alice has a dog named rex"})
        store.put(ALICE, "job", {"text": "alice works as a nurse in lisbon"})
        hits = store.search(ALICE, query="what is the name of the dog")
        assert [h.key for h in hits][0] == "dog"
        assert all(h.score is not None for h in hits)
        scores = [h.score for h in hits if h.score is not None]
        assert scores == sorted(scores, reverse=True)
        assert -1.0 <= scores[-1] <= scores[0] <= 1.0 + 1e-6

    def test_without_query_newest_first_with_limit_and_offset(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """Without a query (or a blank one): most recently updated first, no score."""
        for number in range(5):
            store.put(ALICE, f"k{number}", {"text": f"memory number {number}"})
            clock.advance(1)
        assert [h.key for h in store.search(ALICE)] == ["k4", "k3", "k2", "k1", "k0"]
        assert [h.key for h in store.search(ALICE, limit=2, offset=1)] == ["k3", "k2"]
        assert [h.key for h in store.search(ALICE, query="   ")][:1] == ["k4"]  # blank: recency
        assert all(h.score is None for h in store.search(ALICE))

    def test_query_pages_do_not_overlap(self, store: MemoryStore) -> None:
        """Two consecutive pages of one query share no item."""
        words = ["green", "black", "mint", "herbal", "iced", "milk"]
        for number, word in enumerate(words):
            store.put(ALICE, f"k{number}", {"text": f"{word} tea {'tea ' * number}"})
        first = store.search(ALICE, query="tea", limit=3)
        second = store.search(ALICE, query="tea", limit=3, offset=3)
        assert len(first) == len(second) == 3
        assert {h.key for h in first}.isdisjoint({h.key for h in second})

    @pytest.mark.parametrize(
        ("options", "field"),
        [
            ({"limit": 0}, "limit"),
            ({"limit": 10**20}, "limit"),
            ({"offset": -1}, "offset"),
            ({"query": 3}, "query"),
            ({"query": "tea", "mode": "fuzzy"}, "mode"),
        ],
    )
    def test_bad_search_options_are_named(
        self, store: MemoryStore, options: dict[str, Any], field: str
    ) -> None:
        """A bad ``limit``, ``offset``, ``query`` or ``mode`` is refused and named."""
        with pytest.raises(InvalidArgumentError, match=field):
            store.search(ALICE, **options)

    # -- TTL ------------------------------------------------------------------------------

    def test_expired_items_vanish_from_every_read(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """Expired items are never returned, even before cleanup."""
        store.put(ALICE, "short", {"text": "tea tea tea"}, ttl=10)
        store.put(ALICE, "long", {"text": "tea"}, ttl=1000)
        store.put(ALICE, "forever", {"text": "coffee"})
        clock.advance(11)
        assert store.get(ALICE, "short") is None
        assert {i.key for i in store.search(ALICE)} == {"long", "forever"}
        assert "short" not in {i.key for i in store.search(ALICE, query="tea tea tea")}
        assert store.count(ALICE) == 2
        assert store.list_namespaces() == [ALICE]

    def test_search_returns_k_live_items_when_expired_ones_rank_higher(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``limit`` live items come back though expired ones would rank above them."""
        for number in range(5):
            store.put(ALICE, f"dead{number}", {"text": "tea tea tea tea"}, ttl=5)
        for number in range(3):
            store.put(ALICE, f"live{number}", {"text": f"tea and biscuit {number}"})
        clock.advance(6)
        hits = store.search(ALICE, query="tea tea tea tea", limit=3)
        assert sorted(h.key for h in hits) == ["live0", "live1", "live2"]

    def test_store_default_ttl_and_per_put_override(
        self, new_store: StoreFactory, clock: FakeClock
    ) -> None:
        """The store's ``ttl`` applies unless a put gives its own (``None``: never expires)."""
        store = new_store(ttl=60)
        default = store.put(ALICE, "default", {"text": "x"})
        never = store.put(ALICE, "never", {"text": "y"}, ttl=None)
        assert default.expires_at == clock.now + 60
        assert never.expires_at is None
        clock.advance(61)
        assert store.get(ALICE, "default") is None and store.get(ALICE, "never") is not None

    def test_cleanup_deletes_expired_and_old_items_and_counts_them(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``cleanup`` deletes expired items, and with ``max_age`` old ones, and counts them."""
        store.put(ALICE, "expired", {"text": "x"}, ttl=1)
        store.put(ALICE, "old", {"text": "y"})
        clock.advance(100)
        store.put(ALICE, "fresh", {"text": "z"})
        assert store.cleanup() == 1
        assert store.cleanup(max_age=50) == 1
        assert [i.key for i in store.search(ALICE)] == ["fresh"]
        assert store.cleanup() == 0

    @pytest.mark.parametrize("ttl", [0, -5, "10", True, float("inf"), float("nan"), 1e300])
    def test_bad_ttl_is_rejected(self, store: MemoryStore, ttl: Any) -> None:
        """A TTL that is not a positive, finite, sane number of seconds is refused."""
        with pytest.raises(InvalidArgumentError, match="ttl"):
            store.put(ALICE, "k", {"text": "x"}, ttl=ttl)

    # -- writes ---------------------------------------------------------------------------

    def test_large_batch_is_stored_whole(self, store: MemoryStore) -> None:
        """30 items in one ``put_many`` are all stored, in batches the backend limits."""
        self.limit_write_batches(store.backend, 7)  # force several backend writes
        items = [(f"k{n}", {"text": f"memory {n}", "n": n}) for n in range(30)]
        stored = store.put_many(("bulk",), items)
        assert [i.key for i in stored] == [k for k, _ in items]
        assert store.count(("bulk",)) == 30
        last = store.get(("bulk",), "k29")
        assert last is not None and last.value["n"] == 29

    def test_repeated_key_is_refused(self, store: MemoryStore) -> None:
        """A key given twice in one ``put_many`` is refused, naming it; nothing is written."""
        with pytest.raises(InvalidKeyError, match=r"items\[0\] and items\[2\] both hold key 'k'"):
            store.put_many(
                ("bulk",),
                [("k", {"text": "first"}), ("j", {"text": "other"}), ("k", {"text": "second"})],
            )
        assert store.count() == 0

    @pytest.mark.parametrize(
        ("bad", "error", "message"),
        [
            (("k2", {"text": ""}), InvalidValueError, "text"),
            (("k2", {"body": "no text"}), InvalidValueError, "text"),
            (("k2", {"text": "x", "when": (1, 2)}), InvalidValueError, "round-trip"),
            (("k2", {"text": "x", "obj": object()}), InvalidValueError, "JSON"),
            (("k2", {"text": "x", 1: "int key"}), InvalidValueError, "round-trip"),
            (("k2", {"text": "x", "nan": float("nan")}), InvalidValueError, "JSON"),
            (("k2", "just text"), InvalidValueError, "dict"),
            (("", {"text": "x"}), InvalidKeyError, "key"),
            (("k2", {"text": "lone \ud800 surrogate"}), InvalidValueError, "JSON"),
            (("k\ud800", {"text": "x"}), InvalidKeyError, "UTF-8"),
        ],
    )
    def test_one_bad_item_writes_nothing(
        self, store: MemoryStore, bad: Any, error: type[Exception], message: str
    ) -> None:
        """One bad item in a ``put_many`` fails it whole: nothing is written or changed."""
        store.put(("bulk",), "kept", {"text": "already here", "v": 1})
        with pytest.raises(error, match=message):
            store.put_many(
                ("bulk",), [("k1", {"text": "fine"}), bad, ("kept", {"text": "changed"})]
            )
        assert store.count() == 1
        kept = store.get(("bulk",), "kept")
        assert kept is not None and kept.value == {"text": "already here", "v": 1}

    # -- export and import ----------------------------------------------------------------

    def test_round_trip_keeps_text_metadata_namespaces_times_and_ttl(
        self, new_store: StoreFactory, clock: FakeClock, tmp_path: Path
    ) -> None:
        """Export to JSON Lines and import into another store keeps every item as it was."""
        source = new_store()
        source.put(ALICE, "tea", {"text": "likes tea", "tags": ["a"], "n": None})
        source.put(("users", "bob", "work"), "job", {"text": "nurse", "since": 2020}, ttl=3600)
        clock.advance(5)
        source.put(ALICE, "tea", {"text": "likes green tea", "tags": ["a", "b"]})
        exported = tmp_path / "memories.jsonl"
        assert source.export_jsonl(exported) == 2
        target = new_store()
        assert target.import_jsonl(exported) == 2
        for namespace, key in [(ALICE, "tea"), (("users", "bob", "work"), "job")]:
            assert target.get(namespace, key) == source.get(namespace, key)
        job = target.get(("users", "bob", "work"), "job")
        assert job is not None and job.expires_at == DEFAULT_START + 3600
        assert target.search(("users",), query="green tea")[0].key == "tea"

    def test_export_of_a_prefix_only(self, store: MemoryStore, tmp_path: Path) -> None:
        """``export_jsonl`` with a prefix writes only the items under it, without scores.

        Then the history of the keys under it, one entry a line (``"kind": "history"``).
        """
        store.put(("a",), "k", {"text": "x"})
        store.put(("b",), "k", {"text": "y"})
        assert store.export_jsonl(tmp_path / "a.jsonl", ("a",)) == 1
        item, *history = map(json.loads, (tmp_path / "a.jsonl").read_text().splitlines())
        assert item["namespace"] == ["a"] and "score" not in item and "kind" not in item
        assert [(h["kind"], h["namespace"], h["event"]) for h in history] == [
            ("history", ["a"], "add")
        ]

    def test_bad_line_imports_nothing(self, store: MemoryStore, tmp_path: Path) -> None:
        """A bad line fails the import whole, naming the line; a missing file is named."""
        good = {
            "namespace": ["a"],
            "key": "k",
            "value": {"text": "x"},
            "created_at": 1.0,
            "updated_at": 1.0,
            "expires_at": None,
        }
        bad = dict(good, key="k2", value={"no_text": 1})
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
        with pytest.raises(ImportFormatError, match="line 2"):
            store.import_jsonl(path)
        assert store.count() == 0
        with pytest.raises(ImportFormatError, match="cannot read"):
            store.import_jsonl(tmp_path / "missing.jsonl")

    def test_bad_field_is_named_and_non_utf8_is_refused(
        self, store: MemoryStore, tmp_path: Path
    ) -> None:
        """An import names the line and field of a bad time, and refuses bytes not UTF-8."""
        path = tmp_path / "bad.jsonl"
        line = {
            "namespace": ["a"],
            "key": "k",
            "value": {"text": "x"},
            "created_at": "yesterday",
            "updated_at": 1.0,
            "expires_at": None,
        }
        path.write_text(json.dumps(line) + "\n")
        with pytest.raises(ImportFormatError, match="line 1 .*created_at"):
            store.import_jsonl(path)
        path.write_bytes(b"\xff\xfe not utf-8\n")
        with pytest.raises(ImportFormatError, match="not UTF-8"):
            store.import_jsonl(path)
        assert store.count() == 0

    def test_export_to_a_missing_folder_is_a_clear_error(
        self, store: MemoryStore, tmp_path: Path
    ) -> None:
        """Exporting into a missing folder, or onto a folder, says it cannot write."""
        store.put(("a",), "k", {"text": "x"})
        with pytest.raises(InvalidArgumentError, match="cannot write"):
            store.export_jsonl(tmp_path / "missing" / "out.jsonl")
        with pytest.raises(InvalidArgumentError, match="cannot write"):
            store.export_jsonl(tmp_path)

    # -- history --------------------------------------------------------------------------

    def test_history_records_every_change_with_its_source(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """put, merge, put_many, delete and cleanup each leave their entry, oldest first.

        The history survives the delete, is read for the namespace exactly, and its times
        follow the store's clock.
        """
        t0 = clock.now
        store.put(ALICE, "tea", {"text": "likes tea"}, source="tool")
        clock.advance(1)
        store.put(ALICE, "tea", {"text": "likes green tea"}, source="extractor", event="merge")
        store.put_many(ALICE, [("tea", {"text": "likes black tea"}), ("dog", {"text": "a dog"})])
        store.put(ALICE, "mood", {"text": "tired"}, ttl=5, source="turn")
        clock.advance(10)
        store.delete(ALICE, "tea", source="tool")
        store.delete(ALICE, "tea")  # absent: nothing to record
        assert store.cleanup() == 1
        found = store.history(ALICE, "tea")
        assert [(e.event, e.at, e.source) for e in found] == [
            ("add", t0, "tool"),
            ("merge", t0 + 1, "extractor"),
            ("update", t0 + 1, "api"),
            ("delete", t0 + 11, "tool"),
        ]
        assert [(e.before, e.after) for e in found] == [
            (None, {"text": "likes tea"}),
            ({"text": "likes tea"}, {"text": "likes green tea"}),
            ({"text": "likes green tea"}, {"text": "likes black tea"}),
            ({"text": "likes black tea"}, None),
        ]
        assert {(e.namespace, e.key) for e in found} == {(ALICE, "tea")}
        assert [(e.event, e.at, e.source) for e in store.history(ALICE, "mood")] == [
            ("add", t0 + 1, "turn"),
            ("expire", t0 + 6, "cleanup"),
        ]
        assert [e.event for e in store.history(ALICE, "dog")] == ["add"]
        assert store.history(("users",), "tea") == []
        assert store.history(ALICE + ("x",), "tea") == []
        assert store.history(ALICE, "never") == []

    def test_merge_where_nothing_was_there_is_an_add(self, store: MemoryStore) -> None:
        """``event="merge"`` on a key with no live item records ``"add"``."""
        store.put(ALICE, "k", {"text": "x"}, event="merge")
        assert [e.event for e in store.history(ALICE, "k")] == ["add"]

    @pytest.mark.parametrize("source", ["", "API", "has space", "1st", "x" * 33, None, 5, "tool\n"])
    def test_bad_source_is_refused_and_writes_nothing(
        self, store: MemoryStore, source: Any
    ) -> None:
        """A source that is no short lower-case identifier is refused, naming the field."""
        store.put(ALICE, "k", {"text": "x"})
        with pytest.raises(InvalidArgumentError, match="source"):
            store.put(ALICE, "k", {"text": "y"}, source=source)
        with pytest.raises(InvalidArgumentError, match="source"):
            store.delete(ALICE, "k", source=source)
        with pytest.raises(InvalidArgumentError, match="event"):
            store.put(ALICE, "k", {"text": "y"}, event="update")  # type: ignore[arg-type]
        assert [e.event for e in store.history(ALICE, "k")] == ["add"]
        item = store.get(ALICE, "k")
        assert item is not None and item.value == {"text": "x"}

    def test_history_round_trips_through_export(
        self, new_store: StoreFactory, clock: FakeClock, tmp_path: Path
    ) -> None:
        """Export, import into a new store: every key's history is equal, deleted keys too.

        Importing the same file again adds no entry; an item exported without history (an
        older export) gets an ``"add"`` with source ``"import"``.
        """
        source = new_store()
        source.put(ALICE, "tea", {"text": "likes tea"}, source="tool")
        clock.advance(1)
        source.put(ALICE, "tea", {"text": "likes green tea"}, event="merge")
        source.put(ALICE, "gone", {"text": "was here"})
        source.delete(ALICE, "gone")
        source.put(("users", "bob"), "job", {"text": "nurse"}, ttl=3600)
        exported = tmp_path / "memories.jsonl"
        assert source.export_jsonl(exported) == 2
        keys = [(ALICE, "tea"), (ALICE, "gone"), (("users", "bob"), "job")]
        clock.advance(1)
        target = new_store()
        assert target.import_jsonl(exported) == 2
        for namespace, key in keys:
            assert target.history(namespace, key) == source.history(namespace, key), key
        assert target.import_jsonl(exported) == 2
        for namespace, key in keys:
            assert target.history(namespace, key) == source.history(namespace, key), key
        items_only = tmp_path / "items.jsonl"
        lines = exported.read_text().splitlines()
        items_only.write_text("".join(f"{line}\n" for line in lines if '"kind"' not in line))
        fresh = new_store()
        assert fresh.import_jsonl(items_only) == 2
        (entry,) = fresh.history(("users", "bob"), "job")
        assert (entry.event, entry.source, entry.at) == ("add", "import", clock.now)
        assert fresh.history(ALICE, "gone") == []

    def test_a_value_written_again_is_not_embedded_and_records_no_history(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """Writing an item again as it is stored embeds nothing and adds no history entry.

        With the same ``timestamp`` it is left as it is; at a later time it moves
        ``updated_at`` (and a TTL's expiry), keeping its embedding where the backend reads
        embeddings back.
        """
        embedded = _texts_embedded(store)
        said = clock.now - 100
        store.put_many(ALICE, [("tea", {"text": "likes tea"})], timestamp=said)
        first = store.get(ALICE, "tea")
        embedded.clear()
        store.put_many(ALICE, [("tea", {"text": "likes tea"})], timestamp=said)
        assert store.get(ALICE, "tea") == first and embedded == []
        clock.advance(5)
        again = store.put(ALICE, "tea", {"text": "likes tea"}, ttl=60)
        assert (again.updated_at, again.expires_at) == (clock.now, clock.now + 60)
        assert embedded == ([] if store.backend.returns_embeddings else ["likes tea"])
        assert [e.event for e in store.history(ALICE, "tea")] == ["add"]
        assert store.search(ALICE, query="likes tea", mode="dense")[0].key == "tea"

    def test_vectors_exported_import_without_embedding(
        self, new_store: StoreFactory, tmp_path: Path
    ) -> None:
        """An export with vectors imports into a store of the same embedder without embedding.

        Dense search scores alike after it; a backend that does not read embeddings back
        refuses to export them (``export_jsonl(..., with_vectors=True)``).
        """
        source = new_store()
        source.put_many(ALICE, [("tea", {"text": "likes tea"}), ("dog", {"text": "has a dog"})])
        path = tmp_path / "vectors.jsonl"
        if not source.backend.returns_embeddings:
            with pytest.raises(InvalidArgumentError, match="returns_embeddings"):
                source.export_jsonl(path, with_vectors=True)
            return
        assert source.export_jsonl(path, with_vectors=True) == 2
        target = new_store()
        embedded = _texts_embedded(target)
        assert target.import_jsonl(path) == 2
        assert embedded == []
        for query in ("tea", "a dog"):
            expected = source.search(ALICE, query=query, mode="dense")
            got = target.search(ALICE, query=query, mode="dense")
            assert [i.key for i in got] == [i.key for i in expected]
            for mine, theirs in zip(got, expected):
                assert mine.score == pytest.approx(theirs.score, abs=1e-5)

    def test_history_of_bad_namespaces_and_keys_is_refused(self, store: MemoryStore) -> None:
        """``history`` validates like ``get``: a prefix-like or bad namespace, a bad key."""
        with pytest.raises(InvalidNamespaceError):
            store.history((), "k")
        with pytest.raises(InvalidNamespaceError):
            store.history("users", "k")  # type: ignore[arg-type]
        with pytest.raises(InvalidKeyError):
            store.history(ALICE, "")
        with pytest.raises(InvalidKeyError):
            store.history(ALICE, 5)  # type: ignore[arg-type]

    def test_stats_count_each_memory_in_its_own_namespace(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``stats()`` counts live memories once, in their own namespace, with the embedder."""
        store.put(("users",), "team", {"text": "the team"})
        store.put(ALICE, "a", {"text": "a"})
        store.put(ALICE, "b", {"text": "b"})
        store.put(("users", "alice", "work"), "c", {"text": "c"})
        store.put(("users", "bob"), "gone", {"text": "brief"}, ttl=10)
        clock.advance(20)
        found = store.stats()
        assert found.memories == 4
        assert found.namespaces == {
            ("users",): 1,
            ALICE: 2,
            ("users", "alice", "work"): 1,
        }
        assert found.info["embedder"] == store.embedder.name
        assert found.info["dim"] == store.embedder.dim

    # -- validity: when a memory holds ----------------------------------------------------

    def test_validity_is_stored_as_given_in_seconds_or_datetimes(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``put(valid_from=, valid_to=)`` takes Unix seconds or datetimes, naive ones as UTC.

        Left out, ``valid_from`` is when the item is written (its ``timestamp`` if given) and
        ``valid_to`` is ``None``; ``get`` and ``put_many`` give and take the same.
        """
        plain = store.put(ALICE, "plain", {"text": "plain"})
        assert (plain.valid_from, plain.valid_to) == (clock.now, None)
        (said,) = store.put_many(ALICE, [("said", {"text": "said"})], timestamp=clock.now - 100)
        assert (said.valid_from, said.valid_to) == (clock.now - 100, None)
        march, june = _utc(2023, 3, 1), _utc(2023, 6, 1)
        seconds = store.put(ALICE, "seconds", {"text": "s"}, valid_from=march, valid_to=june)
        naive = store.put(
            ALICE, "naive", {"text": "n"}, valid_from=datetime(2023, 3, 1), valid_to=None
        )
        aware = store.put(
            ALICE,
            "aware",
            {"text": "a"},
            valid_from=datetime(2023, 3, 1, 2, tzinfo=timezone(timedelta(hours=2))),
            valid_to=datetime(2023, 6, 1, tzinfo=timezone.utc),
        )
        assert (seconds.valid_from, seconds.valid_to) == (march, june)
        assert (naive.valid_from, naive.valid_to) == (march, None)
        assert (aware.valid_from, aware.valid_to) == (march, june)
        many = store.put_many(
            ("users", "bob"),
            [("a", {"text": "a"}), ("b", {"text": "b"})],
            valid_from=datetime(2023, 3, 1),
            valid_to=june,
        )
        assert [(i.valid_from, i.valid_to) for i in many] == [(march, june)] * 2
        for item in [plain, said, seconds, naive, aware, *many]:
            assert store.get(item.namespace, item.key) == item, item.key

    @pytest.mark.parametrize(
        ("options", "field"),
        [
            ({"valid_from": _utc(2023, 6, 1), "valid_to": _utc(2023, 3, 1)}, "valid_to"),
            ({"valid_from": _utc(2023, 6, 1), "valid_to": _utc(2023, 6, 1)}, "valid_to"),
            ({"valid_to": datetime(2023, 3, 1)}, "valid_to"),  # before now, the default start
            ({"valid_from": "yesterday"}, "valid_from"),
            ({"valid_to": float("nan")}, "valid_to"),
        ],
    )
    def test_a_validity_that_ends_before_it_begins_is_refused(
        self, store: MemoryStore, options: dict[str, Any], field: str
    ) -> None:
        """A ``valid_to`` not after ``valid_from`` (or a bad time) is refused and named.

        Raised as :class:`~memvault.errors.InvalidArgumentError` by ``put`` and ``put_many``;
        nothing is written.
        """
        with pytest.raises(InvalidArgumentError, match=field):
            store.put(ALICE, "k", {"text": "x"}, **options)
        with pytest.raises(InvalidArgumentError, match=field):
            store.put_many(ALICE, [("j", {"text": "y"})], **options)
        assert store.count() == 0
        assert store.history(ALICE, "k") == [] and store.history(ALICE, "j") == []

    def _move(self, store: MemoryStore, clock: FakeClock) -> tuple[float, float]:
        """Alice lived in Lisbon, and moved to Porto 100 s later: superseded, not overwritten.

        Returns:
            When Lisbon was written, and when Porto began (Unix seconds).
        """
        began = clock.now
        store.put(ALICE, "lisbon", {"text": "alice lives in lisbon"})
        clock.advance(100)
        moved = clock.now
        store.put(ALICE, "porto", {"text": "alice lives in porto"})
        clock.advance(10)
        store.supersede(ALICE, "lisbon", by="porto")
        return began, moved

    def test_supersede_closes_the_old_memory_and_links_the_new_one(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``supersede(ns, "lisbon", by="porto")``: Lisbon holds until Porto began.

        Search finds Porto only, in every mode and without a query; ``as_of`` a time
        between finds Lisbon only. Lisbon stays stored, closed (``valid_to``) and linked
        (``"superseded_by"``), Porto links back (``"supersedes"``), and each history shows
        the add and the update that wrote the link.
        """
        began, moved = self._move(store, clock)
        lisbon, porto = store.get(ALICE, "lisbon"), store.get(ALICE, "porto")
        assert lisbon is not None and porto is not None
        assert lisbon.value == {"text": "alice lives in lisbon", "superseded_by": "porto"}
        assert (lisbon.valid_from, lisbon.valid_to) == (began, moved)
        assert (lisbon.created_at, lisbon.updated_at) == (began, clock.now)
        assert porto.value == {"text": "alice lives in porto", "supersedes": "lisbon"}
        assert (porto.valid_from, porto.valid_to) == (moved, None)
        for mode in store.backend.search_modes:
            query = "where does alice live"
            assert [i.key for i in store.search(ALICE, query=query, mode=mode)] == ["porto"]
            then = store.search(ALICE, query=query, mode=mode, as_of=began + 50)
            assert [i.key for i in then] == ["lisbon"], mode
        assert [i.key for i in store.search(ALICE)] == ["porto"]
        assert [i.key for i in store.search(ALICE, as_of=began)] == ["lisbon"]
        assert [i.key for i in store.search(ALICE, as_of=moved)] == ["porto"]
        as_datetime = datetime.fromtimestamp(began + 50, timezone.utc).replace(tzinfo=None)
        assert [i.key for i in store.search(ALICE, as_of=as_datetime)] == ["lisbon"]
        assert store.count() == 2  # a closed memory is stored still
        assert [(e.event, e.at, e.before, e.after) for e in store.history(ALICE, "lisbon")] == [
            ("add", began, None, {"text": "alice lives in lisbon"}),
            ("update", clock.now, {"text": "alice lives in lisbon"}, lisbon.value),
        ]
        assert [(e.event, e.at, e.before, e.after) for e in store.history(ALICE, "porto")] == [
            ("add", moved, None, {"text": "alice lives in porto"}),
            ("update", clock.now, {"text": "alice lives in porto"}, porto.value),
        ]

    def test_supersede_of_a_closed_or_absent_memory_writes_nothing(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """Superseding a closed, absent or expired key, or by one, raises and writes nothing.

        :class:`~memvault.errors.ItemNotFoundError`; ``by`` equal to the key, or a closing
        time not after the key's ``valid_from``, is an
        :class:`~memvault.errors.InvalidArgumentError`.
        """
        self._move(store, clock)
        store.put(ALICE, "brief", {"text": "brief"}, ttl=5)
        store.put(ALICE, "tea", {"text": "likes tea"})
        clock.advance(10)
        keys = ["lisbon", "porto", "brief", "tea", "absent"]
        before = [(store.get(ALICE, k), store.history(ALICE, k)) for k in keys]
        for key, by in [
            ("lisbon", None),
            ("lisbon", "tea"),
            ("absent", None),
            ("absent", "tea"),
            ("brief", None),
            ("tea", "absent"),
            ("tea", "brief"),
        ]:
            with pytest.raises(ItemNotFoundError):
                store.supersede(ALICE, key, by=by)
            assert [(store.get(ALICE, k), store.history(ALICE, k)) for k in keys] == before
        tea = store.get(ALICE, "tea")
        assert tea is not None
        with pytest.raises(InvalidArgumentError):
            store.supersede(ALICE, "tea", by="tea")
        with pytest.raises(InvalidArgumentError):
            store.supersede(ALICE, "tea", at=tea.valid_from)
        assert [(store.get(ALICE, k), store.history(ALICE, k)) for k in keys] == before

    def test_supersede_without_a_replacement_ends_the_memory(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``supersede(ns, key)`` ends an item now, or ``at`` a time given; it keeps its value.

        A search of now leaves it out, a search ``as_of`` before the end finds it.
        """
        began = clock.now
        store.put(ALICE, "meat", {"text": "alice eats meat"})
        store.put(ALICE, "car", {"text": "alice drives a car"})
        clock.advance(60)
        ended = store.supersede(ALICE, "meat")
        assert (ended.valid_to, ended.value) == (clock.now, {"text": "alice eats meat"})
        sold = store.supersede(ALICE, "car", at=datetime.fromtimestamp(began + 30, timezone.utc))
        assert sold.valid_to == began + 30
        assert store.search(ALICE) == []
        assert {i.key for i in store.search(ALICE, as_of=began + 29)} == {"meat", "car"}
        assert {i.key for i in store.search(ALICE, as_of=began + 30)} == {"meat"}
        assert {i.key for i in store.search(ALICE, query="alice", as_of=began + 45)} == {"meat"}

    def test_a_query_naming_a_past_period_finds_what_held_then(self, store: MemoryStore) -> None:
        """A query naming April 2023 finds Lisbon (closed in June 2023) as well as Porto.

        In every mode; what ended before April 2023 (Braga) is left out; a query naming no
        period finds Porto only, and ``as_of`` a day in April Lisbon only.
        """
        store.put(
            ALICE,
            "braga",
            {"text": "alice lives in braga"},
            valid_from=datetime(2022, 1, 1),
            valid_to=datetime(2023, 1, 1),
        )
        store.put(
            ALICE, "lisbon", {"text": "alice lives in lisbon"}, valid_from=datetime(2023, 1, 1)
        )
        store.put(ALICE, "porto", {"text": "alice lives in porto"}, valid_from=datetime(2023, 6, 1))
        assert store.supersede(ALICE, "lisbon", by="porto").valid_to == _utc(2023, 6, 1)
        for mode in store.backend.search_modes:
            then = store.search(ALICE, query="where did alice live in April 2023", mode=mode)
            assert {i.key for i in then} == {"lisbon", "porto"}, mode
            now = store.search(ALICE, query="where does alice live", mode=mode)
            assert [i.key for i in now] == ["porto"], mode
            april = store.search(
                ALICE, query="where does alice live", mode=mode, as_of=datetime(2023, 4, 15)
            )
            assert [i.key for i in april] == ["lisbon"], mode

    def test_validity_round_trips_through_export(
        self, new_store: StoreFactory, clock: FakeClock, tmp_path: Path
    ) -> None:
        """Export and import keep ``valid_from`` and ``valid_to``: closed items stay closed.

        Every item reads back equal, searches of now and ``as_of`` find the same; each item
        line of the file holds both fields.
        """
        source = new_store()
        began, _ = self._move(source, clock)
        source.put(
            ("users", "bob"),
            "job",
            {"text": "bob was a nurse"},
            valid_from=datetime(2020, 1, 1),
            valid_to=datetime(2022, 1, 1),
        )
        path = tmp_path / "validity.jsonl"
        assert source.export_jsonl(path) == 3
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        items = {line["key"]: line for line in lines if "kind" not in line}
        assert items["job"]["valid_from"] == _utc(2020, 1, 1)
        assert items["job"]["valid_to"] == _utc(2022, 1, 1)
        assert items["porto"]["valid_to"] is None
        clock.advance(5)
        target = new_store()
        assert target.import_jsonl(path) == 3
        for namespace, key in [(ALICE, "lisbon"), (ALICE, "porto"), (("users", "bob"), "job")]:
            assert target.get(namespace, key) == source.get(namespace, key), key
        assert [i.key for i in target.search(ALICE)] == ["porto"]
        assert [i.key for i in target.search(ALICE, as_of=began + 50)] == ["lisbon"]
        assert target.search(("users", "bob")) == []
        held = target.search(("users", "bob"), as_of=datetime(2021, 1, 1))
        assert [i.key for i in held] == ["job"]

    # -- provenance -----------------------------------------------------------------------

    def test_provenance_round_trips_through_reads_and_export(
        self, new_store: StoreFactory, clock: FakeClock, tmp_path: Path
    ) -> None:
        """Each item keeps who wrote its current version, through every read and an export.

        Given, or named by the write's ``source`` (``"tool"``; ``"turn"`` is a user's), else
        ``"api"``; a new version takes its writer's, a supersede keeps it; an import keeps
        the file's and gives a line without one ``"import"``; a bad one writes nothing.
        """
        source = new_store()
        said = Provenance("user", "s-1")
        source.put(ALICE, "kiwi", {"text": "alice is allergic to kiwi"}, provenance=said)
        source.put_many(
            ALICE,
            [("echo", {"text": "alice said she likes jazz"})],
            provenance=Provenance("assistant", "s-1"),
        )
        source.put(ALICE, "tea", {"text": "alice drinks green tea"}, source="tool")
        source.put(ALICE, "city", {"text": "alice lives in lisbon"}, source="turn")
        source.put(ALICE, "dog", {"text": "alice has a dog"})
        wanted = {
            "kiwi": said,
            "echo": Provenance("assistant", "s-1"),
            "tea": Provenance("tool"),
            "city": Provenance("user"),
            "dog": Provenance("api"),
        }
        assert {k: _provenance(source, k) for k in wanted} == wanted
        for mode in source.backend.search_modes:
            found = source.search(ALICE, query="alice kiwi jazz tea lisbon dog", mode=mode)
            assert {i.key: i.provenance for i in found} == wanted, mode
        assert {i.key: i.provenance for i in source.search(ALICE)} == wanted
        clock.advance(1)
        source.put(ALICE, "dog", {"text": "alice has a dog"}, provenance=Provenance("user", "s-2"))
        source.supersede(ALICE, "tea", by="dog")
        wanted["dog"] = Provenance("user", "s-2")
        assert _provenance(source, "dog") == wanted["dog"]
        closed = source.search(ALICE, query="green tea", include_closed=True)
        assert {i.key: i.provenance for i in closed}["tea"] == Provenance("tool")
        robot, number, name_only = cast(Any, "robot"), cast(Any, 3), cast(Any, "user")
        for bad in (
            name_only,
            Provenance(robot),
            Provenance("user", ""),
            Provenance("user", number),
        ):
            with pytest.raises(InvalidArgumentError, match="provenance"):
                source.put(ALICE, "bad", {"text": "never written"}, provenance=bad)
        assert source.get(ALICE, "bad") is None

        path = tmp_path / "provenance.jsonl"
        source.export_jsonl(path)
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        items = {line["key"]: line for line in lines if "kind" not in line}
        assert items["kiwi"]["provenance"] == {"origin": "user", "session": "s-1"}
        del items["city"]["provenance"]  # as an export written before provenance existed
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        target = new_store()
        target.import_jsonl(path)
        for key, provenance in {**wanted, "city": Provenance("import")}.items():
            assert _provenance(target, key) == provenance, key

    # -- erase ----------------------------------------------------------------------------

    def test_erase_leaves_no_trace_of_the_text_in_an_export(
        self, store: MemoryStore, clock: FakeClock, tmp_path: Path
    ) -> None:
        """``delete(..., erase=True)``: no line of an export holds the text, history included.

        The key's history keeps its events with no values and ends with ``"erase"``;
        erasing a key deleted before scrubs what its history held; other keys keep theirs.
        """
        store.put(ALICE, "health", {"text": "alice has diabetes"}, source="tool")
        clock.advance(1)
        store.put(ALICE, "health", {"text": "type two diabetes", "context": "insulin daily"})
        store.put(ALICE, "tea", {"text": "alice likes tea"})
        store.put(ALICE, "secret", {"text": "the safe code is 4711"})
        store.delete(ALICE, "secret")
        clock.advance(1)
        store.delete(ALICE, "health", erase=True, source="user")
        store.delete(ALICE, "secret", erase=True)
        assert store.get(ALICE, "health") is None
        found_keys = {i.key for i in store.search(ALICE, query="diabetes insulin", limit=50)}
        assert found_keys == {"tea"}
        found = [
            (e.event, e.at, e.before, e.after, e.source) for e in store.history(ALICE, "health")
        ]
        assert found == [
            ("add", clock.now - 2, None, None, "tool"),
            ("update", clock.now - 1, None, None, "api"),
            ("erase", clock.now, None, None, "user"),
        ]
        assert [(e.event, e.before, e.after) for e in store.history(ALICE, "secret")] == [
            ("add", None, None),
            ("delete", None, None),
            ("erase", None, None),
        ]
        assert [e.after for e in store.history(ALICE, "tea")] == [{"text": "alice likes tea"}]
        path = tmp_path / "after-erase.jsonl"
        assert store.export_jsonl(path) == 1
        text = path.read_text(encoding="utf-8")
        for word in ("diabetes", "insulin", "4711"):
            assert word not in text, f"{word!r} is still in the export"
        lines = [json.loads(line) for line in text.splitlines()]
        events = [(line["key"], line["event"]) for line in lines if line.get("kind") == "history"]
        assert ("health", "erase") in events and ("secret", "erase") in events
        with pytest.raises(InvalidArgumentError, match="erase"):
            store.delete(ALICE, "tea", erase="yes")  # type: ignore[arg-type]
        assert store.get(ALICE, "tea") is not None

    def test_the_async_twins_supersede_and_erase(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``asupersede`` and ``adelete(..., erase=True)`` do what their sync forms do."""
        store.put(ALICE, "lisbon", {"text": "alice lives in lisbon"})
        clock.advance(10)
        store.put(ALICE, "porto", {"text": "alice lives in porto"})

        async def run() -> None:
            closed = await store.asupersede(ALICE, "lisbon", by="porto")
            assert closed == store.get(ALICE, "lisbon")
            assert closed.valid_to == clock.now and closed.value["superseded_by"] == "porto"
            await store.adelete(ALICE, "lisbon", erase=True)
            assert [e.event for e in await store.ahistory(ALICE, "lisbon")] == [
                "add",
                "update",
                "erase",
            ]

        asyncio.run(run())

    # -- compare-and-set ------------------------------------------------------------------

    def test_a_write_over_the_version_read_goes_ahead(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``if_updated_at`` equal to what is stored writes; ``None`` writes a new key only."""
        first = store.put(ALICE, "k", {"text": "first"}, if_updated_at=None)
        clock.advance(5)
        second = store.put(ALICE, "k", {"text": "second"}, if_updated_at=first.updated_at)
        assert store.get(ALICE, "k") == second
        assert second.text == "second" and second.updated_at == first.updated_at + 5
        assert [e.event for e in store.history(ALICE, "k")] == ["add", "update"]

    def test_a_stale_version_is_a_conflict_that_writes_nothing(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """A stale ``if_updated_at``, or ``None`` over a live item, raises ConflictError."""
        first = store.put(ALICE, "k", {"text": "first"})
        clock.advance(5)
        second = store.put(ALICE, "k", {"text": "second"})
        clock.advance(5)
        with pytest.raises(ConflictError, match="written meanwhile") as raised:
            store.put(ALICE, "k", {"text": "stale"}, if_updated_at=first.updated_at)
        assert raised.value.updated_at == second.updated_at and raised.value.key == "k"
        with pytest.raises(ConflictError, match="already holds an item"):
            store.put(ALICE, "k", {"text": "new?"}, if_updated_at=None)
        with pytest.raises(ConflictError, match="holds no live item"):
            store.put(ALICE, "absent", {"text": "x"}, if_updated_at=second.updated_at)
        assert store.get(ALICE, "k") == second and store.get(ALICE, "absent") is None
        assert [e.event for e in store.history(ALICE, "k")] == ["add", "update"]

    def test_one_conflict_in_a_batch_writes_none_of_it(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``put_many(if_updated_at={key: ...})`` is per item, and all or nothing."""
        kept = store.put(ALICE, "kept", {"text": "kept"})
        clock.advance(5)
        with pytest.raises(ConflictError):
            store.put_many(
                ALICE,
                [("new", {"text": "new"}), ("kept", {"text": "changed"})],
                if_updated_at={"kept": kept.updated_at + 1},
            )
        assert store.get(ALICE, "new") is None and store.get(ALICE, "kept") == kept
        written = store.put_many(
            ALICE,
            [("new", {"text": "new"}), ("kept", {"text": "changed"})],
            if_updated_at={"new": None, "kept": kept.updated_at},
        )
        assert [item.text for item in written] == ["new", "changed"]
        with pytest.raises(InvalidArgumentError, match="not among the items"):
            store.put_many(ALICE, [("a", {"text": "a"})], if_updated_at={"b": None})
        with pytest.raises(InvalidArgumentError, match="if_updated_at"):
            store.put(ALICE, "a", {"text": "a"}, if_updated_at="yesterday")

    def test_an_expired_item_counts_as_none(self, store: MemoryStore, clock: FakeClock) -> None:
        """A key whose item expired holds no live item: ``if_updated_at=None`` writes it."""
        store.put(ALICE, "k", {"text": "brief"}, ttl=10)
        clock.advance(20)
        assert store.put(ALICE, "k", {"text": "again"}, if_updated_at=None).text == "again"

    def test_a_conditional_delete_deletes_only_the_version_read(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """``delete(..., if_updated_at=T)`` deletes version ``T`` only, else ConflictError.

        A stale ``T`` or an absent key raises and deletes nothing; ``None`` is no version.
        """
        first = store.put(ALICE, "k", {"text": "first"})
        clock.advance(5)
        second = store.put(ALICE, "k", {"text": "second"})
        clock.advance(5)
        with pytest.raises(ConflictError, match="written meanwhile") as raised:
            store.delete(ALICE, "k", if_updated_at=first.updated_at)
        assert raised.value.updated_at == second.updated_at and raised.value.key == "k"
        with pytest.raises(ConflictError, match="holds no live item"):
            store.delete(ALICE, "absent", if_updated_at=second.updated_at)
        with pytest.raises(InvalidArgumentError, match="if_updated_at"):
            store.delete(ALICE, "k", if_updated_at=None)
        assert store.get(ALICE, "k") == second
        assert [e.event for e in store.history(ALICE, "k")] == ["add", "update"]
        assert store.history(ALICE, "absent") == []
        store.delete(ALICE, "k", if_updated_at=second.updated_at)
        assert store.get(ALICE, "k") is None
        assert [e.event for e in store.history(ALICE, "k")] == ["add", "update", "delete"]

    def test_a_conditional_delete_of_an_expired_item_is_a_conflict(
        self, store: MemoryStore, clock: FakeClock
    ) -> None:
        """An expired item is no live item: deleting it with ``if_updated_at`` raises."""
        brief = store.put(ALICE, "k", {"text": "brief"}, ttl=10)
        clock.advance(20)
        with pytest.raises(ConflictError, match="holds no live item"):
            store.delete(ALICE, "k", if_updated_at=brief.updated_at)
        assert [e.event for e in store.history(ALICE, "k")] == ["add"]

    def test_the_async_twin_raises_the_conflict_too(self, store: MemoryStore) -> None:
        """``aput`` and ``adelete`` with ``if_updated_at`` check as ``put`` and ``delete`` do."""
        store.put(ALICE, "k", {"text": "there"})

        async def run() -> None:
            with pytest.raises(ConflictError):
                await store.aput(ALICE, "k", {"text": "x"}, if_updated_at=None)
            with pytest.raises(ConflictError):
                await store.adelete(ALICE, "k", if_updated_at=0.0)

        asyncio.run(run())

    # -- async twins ----------------------------------------------------------------------

    def test_async_twins_give_the_sync_results(self, store: MemoryStore, tmp_path: Path) -> None:
        """Every ``a``-prefixed twin returns what its sync form does."""

        async def run() -> None:
            await store.aput(ALICE, "tea", {"text": "alice drinks tea"})
            await store.aput_many(ALICE, [("dog", {"text": "alice has a dog"})])
            tea = await store.aget(ALICE, "tea")
            assert tea is not None and tea.text == "alice drinks tea"
            assert [i.key for i in await store.asearch(ALICE, query="a dog")][0] == "dog"
            assert await store.alist_namespaces() == [ALICE]
            assert await store.acount() == 2
            assert await store.aexport_jsonl(tmp_path / "x.jsonl") == 2
            await store.adelete(ALICE, "tea")
            assert await store.aget(ALICE, "tea") is None
            assert await store.acleanup() == 0
            assert await store.aimport_jsonl(tmp_path / "x.jsonl") == 2
            events = [e.event for e in await store.ahistory(ALICE, "tea")]
            assert events == ["add", "delete", "add"]  # the import added it back
            assert await store.ahistory(ALICE, "tea") == store.history(ALICE, "tea")

        asyncio.run(run())

    def test_async_calls_do_not_block_the_event_loop(self, store: MemoryStore) -> None:
        """While an async put embeds for 0.3 s, the event loop keeps ticking."""
        slow_embed = store.embedder.embed_documents

        def embed_slowly(texts: list[str]) -> list[list[float]]:
            time.sleep(0.3)
            return slow_embed(texts)

        store.embedder.embed_documents = embed_slowly  # type: ignore[method-assign]
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        async def run() -> None:
            task = asyncio.create_task(ticker())
            await store.aput(ALICE, "k", {"text": "x"})
            task.cancel()

        asyncio.run(run())
        assert ticks >= 10  # the loop kept running while the put embedded

    def test_sync_forms_work_inside_a_running_loop(self, store: MemoryStore) -> None:
        """The sync methods work when called inside a running event loop (Jupyter)."""

        async def run() -> None:
            store.put(ALICE, "k", {"text": "inside a loop"})
            got = store.get(ALICE, "k")
            assert got is not None and got.text == "inside a loop"

        asyncio.run(run())


def _texts_embedded(store: MemoryStore) -> list[str]:
    """The texts ``store``'s embedder embeds for documents from now on, as a growing list."""
    embedded: list[str] = []
    embed = store.embedder.embed_documents

    def counting(texts: list[str]) -> list[list[float]]:
        embedded.extend(texts)
        return embed(texts)

    store.embedder.embed_documents = counting  # type: ignore[method-assign]
    return embedded
