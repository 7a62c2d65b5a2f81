"""A record file written by a newer memvault (a schema above this one's) is refused with a
message to upgrade, and left as it is: not taken for damage, moved aside and rebuilt from the
vector index, which would lose its history."""

import sqlite3

import pytest

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from memvault.backends.sqlite.schema import SCHEMA_VERSION
from memvault.errors import StoreVersionError


def files_of(folder):
    """The folder's files, but for SQLite's write-ahead log files (made by any open)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm")))


def open_store(folder):
    return MemoryStore(backend=ChromaBackend(folder), embedder=HashingEmbedder(64))


def test_a_newer_schema_is_refused_and_the_file_kept(tmp_path):
    folder = tmp_path / "store"
    with open_store(folder) as store:
        store.put(("users", "alice"), "city", {"text": "Alice lives in Lisbon"})
        store.put(("users", "alice"), "city", {"text": "Alice moved to Porto"})
    record_file = next(folder.glob("*.records.sqlite3"))
    db = sqlite3.connect(record_file)
    db.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    files = files_of(folder)

    with pytest.raises(StoreVersionError, match="newer memvault.*upgrade memvault"):
        open_store(folder)

    assert files_of(folder) == files
    db = sqlite3.connect(record_file)
    assert db.execute("SELECT count(*) FROM history").fetchone() == (2,)
    db.close()
