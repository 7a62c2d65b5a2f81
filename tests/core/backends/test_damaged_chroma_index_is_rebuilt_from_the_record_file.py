"""Chroma's files are derived from the record file: if they cannot be opened, they are moved
aside (kept) with a warning, and a new index is filled from the record file."""

import warnings

import pytest

from memvault import ChromaBackend, HashingEmbedder, MemoryStore, MemvaultWarning

NS = ("users", "alice")


def open_store(path):
    # exact_scope=0: every dense search goes through Chroma's index.
    return MemoryStore(backend=ChromaBackend(path, exact_scope=0), embedder=HashingEmbedder(64))


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_unreadable_chroma_files_are_set_aside_and_rebuilt(tmp_path, damage):
    store = open_store(tmp_path)
    store.put_many(NS, [(f"k{n}", {"text": f"memory {n} about topic {n % 5}"}) for n in range(60)])
    store.close()
    chroma = tmp_path / "chroma.sqlite3"
    if damage == "garbage":
        chroma.write_bytes(b"not a database at all" * 100)
    else:
        chroma.write_bytes(chroma.read_bytes()[:2048])

    with pytest.warns(MemvaultWarning, match="rebuilt from the record file"):
        reopened = open_store(tmp_path)
    assert reopened.count() == 60
    assert reopened.search(NS, query="memory 17 about topic 2", mode="dense")[0].key == "k17"
    reopened.close()
    assert list(tmp_path.glob("chroma.damaged-*/chroma.sqlite3"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", MemvaultWarning)  # nothing to repair the second time
        again = open_store(tmp_path)
    assert again.backend.index.count() == 60
    again.close()
