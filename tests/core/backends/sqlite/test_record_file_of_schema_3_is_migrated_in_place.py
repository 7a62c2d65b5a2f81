"""A record file of schema 3 opens as it is: migrated to 4 in place, nothing stored lost.

Schema 4 names the count of a namespace's records that never expire ``without_expiry`` (was
``lasting``). A schema-3 file is renamed at open, inside the opening transaction: its namespace
counts read the same (listing, counting, the namespaces table row for row), and its records
and history export as they did.
"""

import sqlite3

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from memvault.backends.sqlite.schema import SCHEMA_VERSION

NOW = 1_800_000_000.0


def make_schema_3(path):
    """Turn a record file of the latest schema into the layout schema 3 had."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        ALTER TABLE namespaces RENAME COLUMN without_expiry TO lasting;
        ALTER TABLE items DROP COLUMN valid_from;
        ALTER TABLE items DROP COLUMN valid_to;
        ALTER TABLE items DROP COLUMN origin;
        ALTER TABLE items DROP COLUMN session;
        UPDATE meta SET value = '3' WHERE name = 'schema';
        """
    )
    db.commit()
    db.close()


def namespace_rows(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT * FROM namespaces ORDER BY ns").fetchall()
    db.close()
    return rows


def open_store(folder, now=NOW):
    return MemoryStore(
        backend=ChromaBackend(folder), embedder=HashingEmbedder(64), clock=lambda: now
    )


def what_it_reads(store, tmp_path, name):
    export = tmp_path / f"{name}.jsonl"
    store.export_jsonl(export)
    return {
        "namespaces": sorted(store.list_namespaces()),
        "counts": [store.count(p) for p in [(), ("users",), ("users", "alice"), ("users", "bob")]],
        "history": [e.event for e in store.history(("users", "alice"), "city")],
        "lexical": [h.key for h in store.search(("users",), query="dogs", mode="lexical")],
        "export": export.read_text(),
    }


def test_a_schema_3_file_is_migrated_and_reads_the_same(tmp_path):
    folder = tmp_path / "store"
    with open_store(folder, now=NOW - 100) as store:
        store.put(("users", "alice"), "city", {"text": "Alice lives in Lisbon"})
        store.put(("users", "alice"), "city", {"text": "Alice moved to Porto"})
        store.put(("users", "alice"), "pet", {"text": "Alice has two dogs"}, ttl=1000)
        store.put(("users", "bob"), "pet", {"text": "Bob walks his dogs"}, ttl=1000)
        store.put(("users", "carol"), "note", {"text": "expired already"}, ttl=10)
    record_file = next(folder.glob("*.records.sqlite3"))
    with open_store(folder) as store:
        before = what_it_reads(store, tmp_path, "before")
    rows = namespace_rows(record_file)
    make_schema_3(record_file)

    with open_store(folder) as store:
        after = what_it_reads(store, tmp_path, "after")

    assert after == before
    assert before["namespaces"] == [("users", "alice"), ("users", "bob")]
    assert before["counts"] == [3, 3, 2, 1]
    assert namespace_rows(record_file) == rows
    db = sqlite3.connect(record_file)
    columns = [row[1] for row in db.execute("PRAGMA table_info(namespaces)")]
    assert columns == ["ns", "namespace", "items", "without_expiry", "expires_max", "words"]
    assert db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    db.close()
