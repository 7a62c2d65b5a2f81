"""A write is acknowledged once the record file holds it. If the process dies before Chroma's
index applies it, searches still find it (ranked exactly) and the next process applies it (a
new index, if the process died while writing the index); a lost record file is rebuilt from
the index."""

import pytest

from memvault import (
    ChromaBackend,
    EmbedderMismatchError,
    HashingEmbedder,
    MemoryStore,
    MemvaultWarning,
)
from memvault.backends import ChromaIndex

NS = ("users", "alice")


def open_store(path, **options):
    # exact_scope=0 sends every dense search through Chroma's index; drain_at=1 applies every
    # write to it at once.
    backend = ChromaBackend(path, exact_scope=0, drain_at=1, **options)
    return MemoryStore(backend=backend, embedder=HashingEmbedder(64))


class Crash(Exception):
    pass


def test_write_whose_index_update_crashed_is_found_and_applied_later(tmp_path, monkeypatch):
    store = open_store(tmp_path)
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    with monkeypatch.context() as patch:
        patch.setattr(ChromaIndex, "apply", lambda *a, **k: (_ for _ in ()).throw(Crash()))
        with pytest.raises(Crash):
            store.put(NS, "dog", {"text": "Alice adopted a dog named Rex"})
        # The record file took the write before the index failed: it is there, in every mode.
        assert store.get(NS, "dog").text == "Alice adopted a dog named Rex"
        for mode in ("dense", "hybrid", "lexical"):
            assert store.search(NS, query="a dog named Rex", mode=mode, limit=1)[0].key == "dog"
        store.backend.records.close()  # the process dies: no drain at close
        store.backend.index.close()

    # The index write was cut off, so its files may be torn: a new index is started and every
    # record is queued for it.
    with pytest.warns(MemvaultWarning, match="was cut off"):
        reopened = open_store(tmp_path)
    assert reopened.backend.records.outbox_size() == 2
    assert list(tmp_path.glob("chroma.damaged-*/chroma.sqlite3"))
    reopened.put(NS, "cat", {"text": "Alice has no cat"})  # the next write drains the outbox
    assert reopened.backend.records.outbox_size() == 0
    assert reopened.backend.index.count() == 3
    hits = reopened.search(NS, query="a dog named Rex", mode="dense", limit=3)
    assert [h.key for h in hits][0] == "dog"
    reopened.close()


def test_lost_record_file_is_rebuilt_from_the_index(tmp_path):
    store = open_store(tmp_path)
    store.put_many(NS, [("tea", {"text": "green tea"}), ("dog", {"text": "a dog named Rex"})])
    record_file = store.backend.records.path
    store.close()
    for file in tmp_path.glob(record_file.name + "*"):
        file.unlink()

    with pytest.warns(MemvaultWarning, match="rebuilt from the vector index"):
        reopened = open_store(tmp_path)
    assert sorted(h.key for h in reopened.search(NS, query="tea dog", mode="lexical")) == [
        "dog",
        "tea",
    ]
    assert reopened.count() == 2
    reopened.close()
    # The rebuilt file knows its embedder again: another one is still refused.
    with pytest.raises(EmbedderMismatchError):
        MemoryStore(backend=ChromaBackend(tmp_path), embedder=HashingEmbedder(32))
