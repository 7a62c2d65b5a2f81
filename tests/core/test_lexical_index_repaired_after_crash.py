"""A crash between the backend write and the lexical write is repaired when the store reopens,
and a lost lexical index file is rebuilt from the backend."""

import pytest

from memvault import HashingEmbedder, MemoryStore
from memvault.lexical import LexicalIndex

NS = ("users", "alice")


def open_store(path):
    return MemoryStore(path, embedder=HashingEmbedder(64))


def keys(store, query):
    return sorted(hit.key for hit in store.search(NS, query=query, mode="lexical"))


class Crash(Exception):
    pass


def crash(*args, **kwargs):
    raise Crash("process died between the two writes")


def test_put_that_crashed_before_the_lexical_write_is_repaired_on_open(tmp_path, monkeypatch):
    store = open_store(tmp_path)
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    with monkeypatch.context() as patch:
        patch.setattr(LexicalIndex, "upsert", crash)
        with pytest.raises(Crash):
            store.put(NS, "tea", {"text": "Alice now drinks espresso"})
        with pytest.raises(Crash):
            store.put(NS, "dog", {"text": "Alice adopted a dog named Rex"})
    assert keys(store, "espresso Rex") == []  # the lexical side is behind
    store.close()

    reopened = open_store(tmp_path)
    assert keys(reopened, "espresso Rex") == ["dog", "tea"]
    assert keys(reopened, "green") == []
    reopened.close()


def test_delete_that_crashed_before_the_lexical_write_is_repaired_on_open(tmp_path, monkeypatch):
    store = open_store(tmp_path)
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    monkeypatch.setattr(LexicalIndex, "delete", crash)
    with pytest.raises(Crash):
        store.delete(NS, "tea")
    monkeypatch.undo()
    store.close()

    reopened = open_store(tmp_path)
    assert reopened.get(NS, "tea") is None
    assert keys(reopened, "green tea") == []
    reopened.close()


def test_lost_lexical_file_is_rebuilt_from_the_backend(tmp_path):
    store = open_store(tmp_path)
    store.put_many(NS, [("tea", {"text": "green tea"}), ("dog", {"text": "a dog named Rex"})])
    index_file = store.backend.lexical_path
    store.close()
    for file in tmp_path.glob(index_file.name + "*"):
        file.unlink()

    reopened = open_store(tmp_path)
    assert keys(reopened, "tea dog") == ["dog", "tea"]
    assert index_file.exists()
    reopened.close()
