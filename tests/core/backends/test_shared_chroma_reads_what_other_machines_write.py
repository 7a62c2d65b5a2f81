"""With a Chroma server shared by several machines, each store sees the others' writes at once,
because it reads records from Chroma and searches densely instead of keeping a local file."""

import chromadb
import pytest
from chromadb.config import Settings

from memvault import (
    BackendUnavailableError,
    ChromaServerBackend,
    HashingEmbedder,
    InvalidArgumentError,
    MemoryStore,
)

NS = ("users", "alice")


@pytest.fixture
def two_machines():
    # One embedded client stands in for the server.
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    stores = [
        MemoryStore(
            backend=ChromaServerBackend(client, collection="shared-test"),
            embedder=HashingEmbedder(64),
        )
        for _ in range(2)
    ]
    yield stores
    client.delete_collection("shared-test")


def test_each_store_sees_the_others_writes(two_machines):
    first, second = two_machines
    first.put(NS, "tea", {"text": "alice drinks green tea"})
    assert second.get(NS, "tea").text == "alice drinks green tea"
    assert [i.key for i in second.search(NS, query="green tea")] == ["tea"]
    assert second.count() == 1 and second.list_namespaces() == [NS]
    second.put(NS, "tea", {"text": "alice drinks black tea"})
    assert first.get(NS, "tea").text == "alice drinks black tea"
    first.delete(NS, "tea")
    assert second.get(NS, "tea") is None and second.search(NS) == []


def test_shared_store_searches_densely_and_refuses_lexical_modes(two_machines):
    store = two_machines[0]
    assert store.backend.search_modes == ("dense",)
    assert store.default_mode == "dense"
    store.put(NS, "tea", {"text": "alice drinks green tea"})
    assert store.search(NS, query="tea")[0].score == pytest.approx(
        store.search(NS, query="tea", mode="dense")[0].score
    )
    for mode in ("hybrid", "lexical"):
        with pytest.raises(InvalidArgumentError, match="'dense'"):
            store.search(NS, query="tea", mode=mode)


def test_a_server_that_is_down_is_one_typed_error_naming_host_and_port():
    with pytest.raises(BackendUnavailableError, match="127.0.0.1:9") as caught:
        ChromaServerBackend(host="127.0.0.1", port=9)
    assert caught.value.__cause__ is not None
