"""Every change to a memory is in its history, on the default on-disk store: add, update,
merge, delete and expire, each with its time, the value before and after, and its source; read
for the exact namespace only, oldest first, also through the async twin."""

import asyncio

from memvault import HashingEmbedder, HistoryEntry, MemoryStore
from memvault.testing import FakeClock

ALICE = ("users", "alice")


def test_every_change_is_recorded_with_time_values_and_source(tmp_path):
    clock = FakeClock()
    t0 = clock.now
    with MemoryStore(tmp_path, embedder=HashingEmbedder(64), clock=clock.time) as store:
        store.put(ALICE, "tea", {"text": "Alice likes tea"}, source="tool")
        clock.advance(60)
        store.put(ALICE, "tea", {"text": "Alice likes green tea"}, source="extractor")
        store.put(ALICE, "tea", {"text": "Alice likes green tea, no sugar"}, event="merge")
        store.put(ALICE, "mood", {"text": "Alice is tired"}, ttl=30, source="turn")
        store.put(("users", "alice", "work"), "tea", {"text": "another tea"})
        clock.advance(60)
        store.delete(ALICE, "tea", source="tool")
        assert store.cleanup() == 1
        tea = store.history(ALICE, "tea")
        mood = asyncio.run(store.ahistory(ALICE, "mood"))
        assert store.history(("users",), "tea") == []
    assert tea == [
        HistoryEntry(ALICE, "tea", "add", t0, None, {"text": "Alice likes tea"}, "tool"),
        HistoryEntry(
            ALICE,
            "tea",
            "update",
            t0 + 60,
            {"text": "Alice likes tea"},
            {"text": "Alice likes green tea"},
            "extractor",
        ),
        HistoryEntry(
            ALICE,
            "tea",
            "merge",
            t0 + 60,
            {"text": "Alice likes green tea"},
            {"text": "Alice likes green tea, no sugar"},
            "api",
        ),
        HistoryEntry(
            ALICE,
            "tea",
            "delete",
            t0 + 120,
            {"text": "Alice likes green tea, no sugar"},
            None,
            "tool",
        ),
    ]
    assert [(e.event, e.at, e.source) for e in mood] == [
        ("add", t0 + 60, "turn"),
        ("expire", t0 + 90, "cleanup"),
    ]
