"""A store on disk remembers its embedder; reopening it with another one fails clearly."""

import pytest

from memvault import EmbedderMismatchError, HashingEmbedder, InvalidArgumentError, MemoryStore


def test_reopen_with_same_embedder_keeps_memories(tmp_path):
    with MemoryStore(tmp_path, embedder=HashingEmbedder(32)) as store:
        store.put(("users", "alice"), "tea", {"text": "alice drinks tea"})
    with MemoryStore(tmp_path, embedder=HashingEmbedder(32)) as store:
        assert store.get(("users", "alice"), "tea").text == "alice drinks tea"


def test_reopen_with_other_embedder_names_both(tmp_path):
    MemoryStore(tmp_path, embedder=HashingEmbedder(32)).close()
    with pytest.raises(EmbedderMismatchError, match="memvault-hashing-32.*memvault-hashing-64"):
        MemoryStore(tmp_path, embedder=HashingEmbedder(64))


def test_path_and_backend_together_are_refused(tmp_path):
    from memvault import InMemoryBackend

    with pytest.raises(InvalidArgumentError, match="either path"):
        MemoryStore(tmp_path, backend=InMemoryBackend(), embedder=HashingEmbedder(32))


def test_default_folder_comes_from_memvault_path(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMVAULT_PATH", str(tmp_path / "store"))
    with MemoryStore(embedder=HashingEmbedder(32)) as store:
        store.put(("a",), "k", {"text": "x"})
        assert store.backend.path == tmp_path / "store"
    assert (tmp_path / "store" / "chroma.sqlite3").exists()
