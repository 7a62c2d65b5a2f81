"""Every test in this folder runs against every backend: adding a backend is adding a fixture."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import chromadb
import pytest
from chromadb.config import Settings

from memvault import ChromaBackend, HashingEmbedder, InMemoryBackend, MemoryStore
from tests.contract.clock import FakeClock

_collections = itertools.count()


@pytest.fixture(scope="session")
def chroma_client() -> Iterator[chromadb.ClientAPI]:
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    yield client


def make_backend(kind: str, client: chromadb.ClientAPI):
    """A fresh backend: in memory; Chroma with the store's local record index (``chroma``, and
    ``chroma-ann``, whose dense searches all go to Chroma's index instead of the exact search of
    small namespaces); or Chroma as a server shared with other machines, read directly."""
    if kind == "memory":
        return InMemoryBackend()
    name = f"contract-{next(_collections)}"
    return ChromaBackend(client=client, collection=name, shared=kind == "chroma-shared")


@pytest.fixture(params=["memory", "chroma", "chroma-ann", "chroma-shared"])
def backend_kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def new_store(
    backend_kind: str, chroma_client: chromadb.ClientAPI, monkeypatch: pytest.MonkeyPatch
):
    """A factory of fresh stores on the backend under test, with the test embedder."""
    if backend_kind == "chroma-ann":
        monkeypatch.setattr("memvault.lexical.EXACT_SCOPE", 0)

    def make(**options) -> MemoryStore:
        options.setdefault("embedder", HashingEmbedder(64))
        return MemoryStore(backend=make_backend(backend_kind, chroma_client), **options)

    return make


@pytest.fixture
def store(new_store) -> MemoryStore:
    return new_store()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr("memvault.store.time", fake)
    return fake
