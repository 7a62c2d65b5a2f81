"""A record file of schema 5 opens as it is: migrated to 6 in place, every record still found.

Schema 6 adds each record's provenance (``items.origin``, ``items.session``). A schema-5 file
gets both at open, inside the opening transaction, ``NULL`` in every record kept: each reads as
written through the API in no session, is found by every search as before, and a write after
the migration records its own provenance.
"""

import sqlite3

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from memvault.backends.sqlite.schema import SCHEMA_VERSION
from memvault.model import Provenance

NOW = 1_800_000_000.0
NS = ("users", "alice")


def make_schema_5(path):
    """Turn a record file of the latest schema into the layout schema 5 had."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        ALTER TABLE items DROP COLUMN origin;
        ALTER TABLE items DROP COLUMN session;
        UPDATE meta SET value = '5' WHERE name = 'schema';
        """
    )
    db.commit()
    db.close()


def open_store(folder):
    return MemoryStore(
        backend=ChromaBackend(folder), embedder=HashingEmbedder(64), clock=lambda: NOW
    )


def test_a_schema_5_file_is_migrated_and_its_records_read_as_written_through_the_api(tmp_path):
    folder = tmp_path / "store"
    with open_store(folder) as store:
        said = Provenance("user", "s-1")
        store.put(NS, "city", {"text": "Alice lives in Lisbon"}, provenance=said)
        store.put_many(NS, [(f"k{n}", {"text": f"Alice note {n}"}) for n in range(5)])
        store.backend.drain()
    record_file = next(folder.glob("*.records.sqlite3"))
    make_schema_5(record_file)

    with open_store(folder) as store:
        city = store.get(NS, "city")
        found = store.search(NS, query="Lisbon", limit=30)
        store.put(NS, "tea", {"text": "Alice drinks tea"}, provenance=Provenance("tool", "s-2"))
        tea = store.get(NS, "tea")

    assert city.provenance == Provenance("api", None)
    assert sorted(item.key for item in found) == sorted(["city", *(f"k{n}" for n in range(5))])
    assert {item.provenance for item in found} == {Provenance("api", None)}
    assert tea.provenance == Provenance("tool", "s-2")
    db = sqlite3.connect(record_file)
    assert db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    assert db.execute("SELECT count(*) FROM items WHERE origin IS NULL").fetchone() == (6,)
    db.close()
