"""A Chroma server collection written by a memvault from before validity (records without
``mv.valid_from``/``mv.valid_to``) is found by every search once a backend opens it: their
metadata is completed once (each record holding from its ``updated_at``, still), and the
collection is marked so that later opens read nothing more."""

import chromadb
import pytest
from chromadb.config import Settings

from memvault import ChromaServerBackend, HashingEmbedder, MemoryStore
from memvault.backends.chroma_schema import has_validity
from memvault.backends.chroma_server import BACKFILLED, HISTORY_SUFFIX
from memvault.testing.clock import FakeClock

NS = ("users", "alice")
NAME = "before-validity"


@pytest.fixture
def client():
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    yield client
    for name in (NAME, NAME + HISTORY_SUFFIX):
        client.delete_collection(name)


def _as_written_before_validity(client) -> None:
    """Take the validity keys out of every record, and the backfill's mark out."""
    records = client.get_collection(NAME)
    ids = records.get(include=[])["ids"]
    records.update(ids=ids, metadatas=[{"mv.valid_from": None, "mv.valid_to": None}] * len(ids))
    client.get_collection(NAME + HISTORY_SUFFIX).modify(metadata={BACKFILLED: None})


def test_records_without_validity_are_completed_once_at_open(client):
    clock = FakeClock(1_000.0)
    with MemoryStore(
        backend=ChromaServerBackend(client, collection=NAME),
        embedder=HashingEmbedder(64),
        clock=clock.time,
    ) as store:
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
        clock.advance(1_000)
        store.put(NS, "city", {"text": "Alice lives in Lyon"})
    _as_written_before_validity(client)
    assert not any(map(has_validity, client.get_collection(NAME).get()["metadatas"]))

    clock.advance(1_000)
    with MemoryStore(
        backend=ChromaServerBackend(client, collection=NAME),
        embedder=HashingEmbedder(64),
        clock=clock.time,
    ) as store:
        metadatas = client.get_collection(NAME).get()["metadatas"]
        assert sorted((m["mv.valid_from"], m["mv.valid_to"]) for m in metadatas) == [
            (1_000.0, 1e18),
            (2_000.0, 1e18),
        ]
        assert sorted(i.key for i in store.search(NS)) == ["city", "tea"]
        assert [i.key for i in store.search(NS, query="alice drinks tea", limit=1)] == ["tea"]
        assert [i.key for i in store.search((), query="alice", as_of=1_500.0)] == ["tea"]
        assert (store.get(NS, "tea").valid_from, store.get(NS, "tea").valid_to) == (1_000.0, None)
    assert client.get_collection(NAME + HISTORY_SUFFIX).metadata == {BACKFILLED: True}
