"""Every test in this folder runs against every backend: adding a backend is adding a fixture."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import chromadb
import pytest
from chromadb.config import Settings

from memvault import (
    ChromaBackend,
    ChromaServerBackend,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
)
from tests.contract.clock import FakeClock

_collections = itertools.count()


@pytest.fixture(scope="session")
def chroma_client() -> Iterator[chromadb.ClientAPI]:
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    yield client


def make_backend(kind: str, client: chromadb.ClientAPI):
    """A fresh backend: in memory; Chroma as the vector index of a record file (``chroma``, and
    ``chroma-ann``, whose dense searches all go to Chroma's index instead of the exact search of
    small scopes); or Chroma as a server shared with other machines (``chroma-server``)."""
    if kind == "memory":
        return InMemoryBackend()
    name = f"contract-{next(_collections)}"
    if kind == "chroma-server":
        return ChromaServerBackend(client, collection=name)
    if kind == "chroma-ann":  # index lags by up to 2 writes; every search by it
        return ChromaBackend(client=client, collection=name, exact_scope=0, drain_at=3)
    return ChromaBackend(client=client, collection=name)


@pytest.fixture(params=["memory", "chroma", "chroma-ann", "chroma-server"])
def backend_kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def new_store(backend_kind: str, chroma_client: chromadb.ClientAPI, request: pytest.FixtureRequest):
    """A factory of fresh stores on the backend under test, with the test embedder, and the
    test's fake clock if it asks for ``clock``."""
    fake = request.getfixturevalue("clock") if "clock" in request.fixturenames else None

    def make(**options) -> MemoryStore:
        options.setdefault("embedder", HashingEmbedder(64))
        if fake is not None:
            options.setdefault("clock", fake.time)
        return MemoryStore(backend=make_backend(backend_kind, chroma_client), **options)

    return make


@pytest.fixture
def store(new_store) -> MemoryStore:
    return new_store()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
