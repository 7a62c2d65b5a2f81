"""Concurrent writes of one key are serialised: whatever wins, reads, filtered searches (on the
exact path and through Chroma's index) and the index all agree on it."""

import asyncio

import pytest

from memvault import ChromaBackend, HashingEmbedder, MemoryStore

NS = ("users", "alice")


@pytest.mark.parametrize("exact_scope", [2000, 0], ids=["exact", "chroma-index"])
def test_racing_puts_leave_one_consistent_item(tmp_path, exact_scope):
    backend = ChromaBackend(tmp_path, exact_scope=exact_scope, drain_at=1)
    store = MemoryStore(backend=backend, embedder=HashingEmbedder(64))

    async def race(round_):
        await asyncio.gather(
            store.aput(NS, "k", {"text": f"first {round_}", "kind": "secret"}),
            store.aput(NS, "k", {"text": f"second {round_}"}),
        )

    for round_ in range(20):
        asyncio.run(race(round_))
        value = store.get(NS, "k").value
        secret = store.search(NS, query="first second", filter={"kind": "secret"}, mode="dense")
        plain = store.search(NS, query="first second", mode="dense")
        assert [i.value for i in plain] == [value]
        assert [i.value for i in secret] == ([value] if value.get("kind") == "secret" else [])
    assert store.count() == 1
    store.close()
