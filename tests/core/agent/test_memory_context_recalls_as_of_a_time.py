"""``memory_context`` and ``amemory_context`` take ``as_of``: the block holds what held then
(a memory superseded since, dated with its end), not what holds now."""

import asyncio
from datetime import datetime, timezone

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore, amemory_context, memory_context

NS = ("users", "ada")
MARCH = datetime(2023, 3, 1, tzinfo=timezone.utc)
JUNE = datetime(2023, 6, 2, tzinfo=timezone.utc)
APRIL = datetime(2023, 4, 15, tzinfo=timezone.utc)


def test_the_block_holds_what_held_then():
    store = MemoryStore(embedder=HashingEmbedder(dim=64), backend=InMemoryBackend())
    store.put(NS, "lisbon", {"text": "Ada lives in Lisbon."}, valid_from=MARCH)
    store.put(NS, "porto", {"text": "Ada lives in Porto."}, valid_from=JUNE)
    store.supersede(NS, "lisbon", by="porto")

    then = memory_context(store, "where does Ada live", namespace=NS, as_of=APRIL)
    assert '"Ada lives in Lisbon.", "since": "2023-03-01", "until": "2023-06-02"}' in then
    assert "Porto" not in then
    assert (
        asyncio.run(amemory_context(store, "where does Ada live", namespace=NS, as_of=APRIL))
        == then
    )
    now = memory_context(store, "where does Ada live", namespace=NS)
    assert "Porto" in now and "Lisbon" not in now
