"""A Postgres schema written by memvault's schema version 1 is migrated in place when a backend
opens it: its records, history and searches are kept, its ``ns`` index now covers what a
scope's count and mean length read, and its rows keep records whole up to 8 kB."""

import psycopg

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from memvault.backends.postgres.schema import SCHEMA_VERSION
from tests.postgres import fresh_schema


def _ns_index(dsn: str, schema: str) -> str:
    with psycopg.connect(dsn) as connection:
        row = connection.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname = 'items_by_ns'",
            (schema,),
        ).fetchone()
    assert row is not None
    return str(row[0])


def test_a_schema_1_store_is_migrated_at_open(postgres_dsn):
    schema = fresh_schema()
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        store.put(("users", "alice"), "drink", {"text": "Alice drinks green tea"})
        store.put(("users", "alice"), "drink", {"text": "Alice drinks black tea"})
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:  # as version 1 left it
        connection.execute(f"DROP INDEX {schema}.items_by_ns")
        connection.execute(f"CREATE INDEX items_by_ns ON {schema}.items (ns)")
        connection.execute(f"ALTER TABLE {schema}.items RESET (toast_tuple_target)")
        connection.execute(
            f"ALTER TABLE {schema}.items DROP valid_from, DROP valid_to, DROP origin, DROP session"
        )
        connection.execute(f"UPDATE {schema}.meta SET value = '1' WHERE name = 'schema'")
    assert "INCLUDE" not in _ns_index(postgres_dsn, schema)

    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        found = store.search(("users",), query="what does alice drink")
        assert [item.value["text"] for item in found] == ["Alice drinks black tea"]
        assert [e.event for e in store.history(("users", "alice"), "drink")] == ["add", "update"]

    assert _ns_index(postgres_dsn, schema).endswith("(ns) INCLUDE (expires, length)")
    with psycopg.connect(postgres_dsn) as connection:
        version = connection.execute(
            f"SELECT value FROM {schema}.meta WHERE name = 'schema'"
        ).fetchone()
        options = connection.execute(
            "SELECT reloptions FROM pg_class WHERE oid = %s::regclass", (f"{schema}.items",)
        ).fetchone()
    assert version == (str(SCHEMA_VERSION),)
    assert options == (["toast_tuple_target=8160"],)
