"""A record file written by memvault before schema 3 opens as it is: migrated, nothing lost.

Schema 3 keeps each record's words for BM25 with the statistics of the searched namespace; a
schema-2 file (FTS5 ``porter`` index of the raw text, no word columns) gains them at open, with
its records, history and namespaces kept and lexical search working at once; it is then taken
on to the latest schema (4: ``namespaces.lasting`` named ``without_expiry``).
"""

import sqlite3

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from memvault.backends.sqlite.schema import SCHEMA_VERSION

NS = ("users", "alice")


def make_schema_2(path):
    """Turn a record file of the latest schema into the layout memvault 0.x wrote before 3."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        ALTER TABLE namespaces RENAME COLUMN without_expiry TO lasting;
        ALTER TABLE items DROP COLUMN length;
        ALTER TABLE items DROP COLUMN terms;
        ALTER TABLE items DROP COLUMN valid_from;
        ALTER TABLE items DROP COLUMN valid_to;
        ALTER TABLE items DROP COLUMN origin;
        ALTER TABLE items DROP COLUMN session;
        ALTER TABLE namespaces DROP COLUMN words;
        DROP TABLE docs;
        CREATE VIRTUAL TABLE docs USING fts5(scope, body, tokenize = 'porter unicode61');
        UPDATE meta SET value = '2' WHERE name = 'schema';
        """
    )
    db.commit()
    db.close()


def test_a_schema_2_file_is_migrated_and_keeps_records_and_history(tmp_path):
    folder = tmp_path / "store"
    with MemoryStore(backend=ChromaBackend(folder), embedder=HashingEmbedder(64)) as store:
        store.put(NS, "city", {"text": "Alice lives in Lisbon"})
        store.put(NS, "city", {"text": "Alice moved to Porto"})
        store.put(NS, "pet", {"text": "Alice has two dogs named Rex and Fido"})
        store.put(("users", "bob"), "pet", {"text": "Bob has a cat"})
    record_file = next(folder.glob("*.records.sqlite3"))
    make_schema_2(record_file)

    with MemoryStore(backend=ChromaBackend(folder), embedder=HashingEmbedder(64)) as store:
        assert [h.key for h in store.search(NS, query="dog", mode="lexical")] == ["pet"]
        assert [h.key for h in store.search(NS, query="Porto", mode="lexical")] == ["city"]
        assert store.search(NS, query="Lisbon", mode="lexical") == []
        assert sorted(store.list_namespaces()) == [("users", "alice"), ("users", "bob")]
        assert [e.event for e in store.history(NS, "city")] == ["add", "update"]

    db = sqlite3.connect(record_file)
    assert db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    assert db.execute("SELECT sum(words) FROM namespaces").fetchone()[0] == 16
    db.close()
