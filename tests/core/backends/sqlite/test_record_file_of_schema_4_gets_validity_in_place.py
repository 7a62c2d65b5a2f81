"""A record file of schema 4 opens as it is: migrated to 5 in place, every record still found.

Schema 5 adds each record's validity (``items.valid_from``, ``items.valid_to``). A schema-4 file
gets both at open, inside the opening transaction: each record holds from its ``updated_at`` and
still holds, so searches of now (through the vector index too, which is given every record again
with its validity) and ``as_of`` a time after it find it, and ``as_of`` a time before it does not.
"""

import sqlite3

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from memvault.backends.sqlite.schema import SCHEMA_VERSION

NOW = 1_800_000_000.0
NS = ("users", "alice")


def make_schema_4(path):
    """Turn a record file of the latest schema into the layout schema 4 had."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        ALTER TABLE items DROP COLUMN valid_from;
        ALTER TABLE items DROP COLUMN valid_to;
        ALTER TABLE items DROP COLUMN origin;
        ALTER TABLE items DROP COLUMN session;
        UPDATE meta SET value = '4' WHERE name = 'schema';
        """
    )
    db.commit()
    db.close()


def open_store(folder):
    backend = ChromaBackend(folder)
    backend.exact_scope = 0  # rank through the vector index, not exactly
    return MemoryStore(backend=backend, embedder=HashingEmbedder(64), clock=lambda: NOW)


def test_a_schema_4_file_is_migrated_and_every_record_holds_from_its_last_write(tmp_path):
    folder = tmp_path / "store"
    with open_store(folder) as store:
        store.put_many(NS, [("city", {"text": "Alice lives in Lisbon"})], timestamp=NOW - 500)
        store.put_many(NS, [(f"k{n}", {"text": f"Alice note {n}"}) for n in range(20)])
        store.backend.drain()
    record_file = next(folder.glob("*.records.sqlite3"))
    make_schema_4(record_file)

    with open_store(folder) as store:
        city = store.get(NS, "city")
        found = [item.key for item in store.search(NS, query="Lisbon", mode="dense", limit=30)]
        before = store.search(NS, query="Lisbon", mode="dense", as_of=NOW - 600, limit=30)
        after = store.search(NS, query="Lisbon", mode="hybrid", as_of=NOW - 100, limit=30)

    assert (city.valid_from, city.valid_to) == (NOW - 500, None)
    assert sorted(found) == sorted(["city", *(f"k{n}" for n in range(20))])
    assert before == []
    assert [item.key for item in after] == ["city"]
    db = sqlite3.connect(record_file)
    assert db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    db.close()
