"""Erasing a memory on a Chroma server leaves its text in nothing the store's two collections
return: the record is gone, every history entry of its key keeps its event and time without
its values, ``"erase"`` is recorded (also for a key with only a history left), and another
memory stays whole."""

import json

import chromadb
import pytest
from chromadb.config import Settings

from memvault import ChromaServerBackend, HashingEmbedder, MemoryStore
from memvault.backends.chroma_server import HISTORY_SUFFIX

NS = ("users", "alice")
SECRET_WORDS = ("zygomycosis", "diagnosed", "mycology", "antifungal")


def _everything(client, collection: str) -> str:
    """Every id, document and metadata both collections return, as one lower-case text."""
    held = [
        client.get_collection(name).get(include=["metadatas", "documents"])
        for name in (collection, collection + HISTORY_SUFFIX)
    ]
    return json.dumps(held, ensure_ascii=False).lower()


@pytest.fixture
def client():
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    yield client
    for name in ("erase-test", "erase-test" + HISTORY_SUFFIX):
        client.delete_collection(name)


def test_after_an_erase_the_collections_hold_none_of_the_text(client):
    with MemoryStore(
        backend=ChromaServerBackend(client, collection="erase-test"),
        embedder=HashingEmbedder(64),
    ) as store:
        store.put(NS, "health", {"text": "Alice was diagnosed in March", "topic": "mycology"})
        store.put(NS, "health", {"text": "Alice was diagnosed with zygomycosis"})
        store.put(NS, "treatment", {"text": "Alice takes an antifungal drug"})
        store.delete(NS, "treatment")  # only its history is left
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
        assert all(word in _everything(client, "erase-test") for word in SECRET_WORDS)

        store.delete(NS, "health", erase=True)
        store.delete(NS, "treatment", erase=True)

        held = _everything(client, "erase-test")
        assert [word for word in SECRET_WORDS if word in held] == []
        assert "alice drinks green tea" in held
        for key, events in (
            ("health", ["add", "update", "erase"]),
            ("treatment", ["add", "delete", "erase"]),
        ):
            history = store.history(NS, key)
            assert [e.event for e in history] == events
            assert all(e.before is None and e.after is None for e in history)
        assert store.get(NS, "health") is None
        assert store.get(NS, "tea").text == "Alice drinks green tea"
        store.delete(NS, "never-written", erase=True)  # nothing to erase: no entry
        assert store.history(NS, "never-written") == []
