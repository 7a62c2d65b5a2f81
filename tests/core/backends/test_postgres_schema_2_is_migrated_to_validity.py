"""A Postgres schema written by memvault's schema version 2 (before validity) is migrated in
place when a backend opens it: ``items`` gains ``valid_from`` (each record's ``updated`` time,
then required) and ``valid_to`` (``NULL``: still holds), so its records are found by every read
as holding from when they were last written."""

import psycopg

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from memvault.backends.postgres.schema import SCHEMA_VERSION
from memvault.testing.clock import FakeClock
from tests.postgres import fresh_schema

NS = ("users", "alice")


def test_a_schema_2_store_gets_validity_at_open(postgres_dsn):
    schema = fresh_schema()
    clock = FakeClock(1_000.0)
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema),
        embedder=HashingEmbedder(64),
        clock=clock.time,
    ) as store:
        store.put(NS, "drink", {"text": "Alice drinks green tea"})
        clock.advance(500)
        store.put(NS, "city", {"text": "Alice lives in Lyon"})
        clock.advance(500)
        store.put(NS, "drink", {"text": "Alice drinks black tea"})
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:  # as version 2 left it
        connection.execute(
            f"ALTER TABLE {schema}.items DROP valid_from, DROP valid_to, DROP origin, DROP session"
        )
        connection.execute(f"UPDATE {schema}.meta SET value = '2' WHERE name = 'schema'")

    clock.advance(500)
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema),
        embedder=HashingEmbedder(64),
        clock=clock.time,
    ) as store:
        drink, city = store.get(NS, "drink"), store.get(NS, "city")
        assert (drink.created_at, drink.updated_at) == (1_000.0, 2_000.0)
        assert (drink.valid_from, drink.valid_to) == (2_000.0, None)
        assert (city.valid_from, city.valid_to) == (1_500.0, None)
        for mode in ("hybrid", "dense", "lexical"):
            found = store.search(NS, query="alice drinks tea", mode=mode, limit=1)
            assert [item.text for item in found] == ["Alice drinks black tea"], mode
        assert {item.key for item in store.search(NS)} == {"drink", "city"}
        assert [item.key for item in store.search(NS, query="alice", as_of=1_600.0)] == ["city"]
        assert [e.event for e in store.history(NS, "drink")] == ["add", "update"]

    with psycopg.connect(postgres_dsn) as connection:
        version = connection.execute(
            f"SELECT value FROM {schema}.meta WHERE name = 'schema'"
        ).fetchone()
        columns = connection.execute(
            "SELECT column_name, is_nullable FROM information_schema.columns "
            "WHERE table_schema = %s AND table_name = 'items' AND column_name LIKE 'valid%%' "
            "ORDER BY column_name",
            (schema,),
        ).fetchall()
    assert version == (str(SCHEMA_VERSION),)
    assert columns == [("valid_from", "NO"), ("valid_to", "YES")]
