"""A Postgres write of more than ``BULK_KEYS`` keys takes no key locks; where another writer
inserts one of its keys between its read and its insert, it runs again, so that key's history
is the other writer's ``add`` then the bulk write's ``update`` (not two adds), and the bulk
write's value is the one stored.

The other writer is a second store on the same schema, run from inside the bulk write (right
after it read the versions it replaces) and committed before the bulk write inserts.
"""

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend, writes
from tests.postgres import fresh_schema

NS = ("bulk",)


def test_bulk_write_meets_a_put_of_one_of_its_keys(postgres_dsn, monkeypatch):
    schema = fresh_schema()
    bulk = MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(8)
    )
    other = MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(8)
    )
    other.put(NS, "first", {"text": "the other writer opens the store"})
    original, reads = writes.check_expected, []

    def put_meanwhile(records, *args, **kwargs):
        if len(records) > writes.BULK_KEYS:  # the bulk write, not the other's
            reads.append(len(records))
        if len(reads) == 1 and len(records) > writes.BULK_KEYS:
            other.put(NS, "b-7", {"text": "the other writer's version"}, source="tool")
        return original(records, *args, **kwargs)

    monkeypatch.setattr(writes, "check_expected", put_meanwhile)
    items = [(f"b-{n}", {"text": f"bulk note {n}"}) for n in range(writes.BULK_KEYS + 1)]
    bulk.put_many(NS, items)

    assert len(reads) == 2  # the bulk write ran again once
    assert bulk.count(NS) == writes.BULK_KEYS + 2
    assert bulk.get(NS, "b-7").value == {"text": "bulk note 7"}
    # By event: the bulk write's entry is dated at its start, before the other's put.
    history = sorted(bulk.history(NS, "b-7"), key=lambda e: e.event)
    assert [(e.event, e.source, e.before, e.after) for e in history] == [
        ("add", "tool", None, {"text": "the other writer's version"}),
        ("update", "api", {"text": "the other writer's version"}, {"text": "bulk note 7"}),
    ]
    bulk.close()
    other.close()
