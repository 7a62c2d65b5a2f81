"""A store folder reopened to read starts no Chroma client: the record file remembers what the
Chroma index held when last read, with the state of its files, and serves every small-scope
read itself. A write starts the client where the index takes it (the drain at close); Chroma
files changed since they were last read are read again at open."""

import os

import chromadb
import pytest

from memvault import HashingEmbedder, MemoryStore

NS = ("users", "alice")


@pytest.fixture
def clients(monkeypatch):
    """The Chroma clients started, one entry per ``PersistentClient``."""
    started = []
    real = chromadb.PersistentClient

    def counting(*args, **kwargs):
        started.append(kwargs.get("path"))
        return real(*args, **kwargs)

    monkeypatch.setattr(chromadb, "PersistentClient", counting)
    return started


def open_store(folder):
    return MemoryStore(folder, embedder=HashingEmbedder(64))


def test_reads_of_a_reopened_folder_start_no_chroma_client(tmp_path, clients):
    with open_store(tmp_path) as store:
        store.put_many(
            NS, [(f"k{n}", {"text": f"alice note {n} on topic {n % 4}"}) for n in range(30)]
        )
    clients.clear()

    with open_store(tmp_path) as store:
        assert store.count() == 30
        assert store.get(NS, "k7").text == "alice note 7 on topic 3"
        for mode in ("hybrid", "dense", "lexical"):
            assert store.search(NS, query="alice note 7 on topic 3", mode=mode)[0].key == "k7"
        assert [entry.event for entry in store.history(NS, "k7")] == ["add"]
    assert clients == []

    with open_store(tmp_path) as store:  # a write reaches Chroma when the store closes
        store.put(NS, "k30", {"text": "alice note 30 on topic 2"})
    assert len(clients) == 1
    clients.clear()
    with open_store(tmp_path) as store:
        assert store.count() == 31
        assert store.search(NS, query="alice note 30 on topic 2")[0].key == "k30"
    assert clients == []


def test_chroma_files_changed_since_are_read_again(tmp_path, clients):
    with open_store(tmp_path) as store:
        store.put(NS, "tea", {"text": "alice drinks tea"})
    os.utime(tmp_path / "chroma.sqlite3")  # written by someone else since
    clients.clear()
    with open_store(tmp_path) as store:
        assert store.get(NS, "tea").text == "alice drinks tea"
    assert len(clients) == 1
    clients.clear()
    open_store(tmp_path).close()
    assert clients == []
