"""Every read of a Chroma server keeps the memories its validity admits: a superseded memory is
left out of recency lists and dense searches now (also where the search asks Chroma by the
namespace alone and checks the hits) and found as of a time it held."""

import chromadb
import pytest
from chromadb.config import Settings

from memvault import ChromaServerBackend, HashingEmbedder, MemoryStore
from memvault.backends.chroma_server import HISTORY_SUFFIX
from memvault.testing.clock import FakeClock

NS = ("users", "alice")
THEN = 3_000.0
"""When Alice still ate meat (she turned vegetarian at 5,000)."""


@pytest.fixture
def client():
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    yield client
    for name in ("validity-test", "validity-test" + HISTORY_SUFFIX):
        client.delete_collection(name)


def test_reads_leave_out_what_no_longer_holds_and_find_it_as_of_then(client):
    clock = FakeClock(10_000.0)
    with MemoryStore(
        backend=ChromaServerBackend(client, collection="validity-test"),
        embedder=HashingEmbedder(64),
        clock=clock.time,
    ) as store:
        store.put(NS, "diet", {"text": "Alice eats meat", "kind": "food"}, valid_from=1_000.0)
        store.put(
            NS, "vegetarian", {"text": "Alice eats no meat", "kind": "food"}, valid_from=5_000.0
        )
        store.supersede(NS, "diet", by="vegetarian")
        store.put(NS, "tea", {"text": "Alice drinks tea", "kind": "drink"}, valid_from=1_000.0)

        for prefix in (NS, ()):  # by the namespace alone and checked, or all inside the query
            for filter, now, then in (
                ({"kind": "food"}, ["vegetarian"], ["diet"]),
                (None, ["vegetarian", "tea"], ["diet", "tea"]),
            ):
                found = store.search(prefix, filter=filter)
                assert sorted(i.key for i in found) == sorted(now)
                found = store.search(prefix, filter=filter, as_of=THEN)
                assert sorted(i.key for i in found) == sorted(then)
                found = store.search(prefix, query="alice eats meat", filter=filter)
                assert [i.key for i in found][:1] == now[:1]
                assert sorted(i.key for i in found) == sorted(now)
                found = store.search(prefix, query="alice eats meat", filter=filter, as_of=THEN)
                assert [i.key for i in found][:1] == then[:1]
                assert sorted(i.key for i in found) == sorted(then)
