"""A store path that names a file is refused before anything is created."""

import pytest

from memvault import HashingEmbedder, InvalidArgumentError, MemoryStore


def test_file_as_store_path(tmp_path):
    existing = tmp_path / "notes.txt"
    existing.write_text("mine")
    with pytest.raises(InvalidArgumentError, match="path .* is a file; give a folder"):
        MemoryStore(existing, embedder=HashingEmbedder(32))
    assert existing.read_text() == "mine"
