"""With a Chroma server shared by several machines, each store sees the others' writes at once,
because it reads records from Chroma and searches densely instead of keeping a local mirror."""

import chromadb
import pytest
from chromadb.config import Settings

from memvault import ChromaBackend, HashingEmbedder, InvalidArgumentError, MemoryStore

NS = ("users", "alice")


@pytest.fixture
def two_machines():
    # One embedded client stands in for the server; shared=True is what a server client gets.
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    stores = [
        MemoryStore(
            backend=ChromaBackend(client=client, collection="shared-test", shared=True),
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
    assert store.default_mode == "dense"
    store.put(NS, "tea", {"text": "alice drinks green tea"})
    assert store.search(NS, query="tea")[0].score == pytest.approx(
        store.search(NS, query="tea", mode="dense")[0].score
    )
    for mode in ("hybrid", "lexical"):
        with pytest.raises(InvalidArgumentError, match="mode='dense'"):
            store.search(NS, query="tea", mode=mode)


def test_a_server_client_counts_as_shared():
    settings = Settings(chroma_api_impl="chromadb.api.fastapi.FastAPI")

    class ServerClient:
        def get_settings(self):
            return settings

        def get_or_create_collection(self, *args, **kwargs):
            return object()

        def get_max_batch_size(self):
            return 100

    assert ChromaBackend(client=ServerClient()).shared is True
    embedded = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    assert ChromaBackend(client=embedded, collection="embedded-test").shared is False
