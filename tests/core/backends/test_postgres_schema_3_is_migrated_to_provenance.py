"""A Postgres schema written by memvault's schema version 3 (before provenance) is migrated in
place when a backend opens it: ``items`` gains ``origin`` and ``session``, ``NULL`` in every
record kept, so each reads as written through the API in no session, through ``get`` and every
search; a write after the migration records its own provenance."""

import psycopg

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from memvault.backends.postgres.schema import SCHEMA_VERSION
from memvault.model import Provenance
from memvault.testing.clock import FakeClock
from tests.postgres import fresh_schema

NS = ("users", "alice")


def test_a_schema_3_store_gets_provenance_at_open(postgres_dsn):
    schema = fresh_schema()
    clock = FakeClock(1_000.0)

    def open_store():
        return MemoryStore(
            backend=PostgresBackend(postgres_dsn, schema=schema),
            embedder=HashingEmbedder(64),
            clock=clock.time,
        )

    with open_store() as store:
        store.put(NS, "drink", {"text": "Alice drinks green tea"}, provenance=Provenance("user"))
        store.put(NS, "city", {"text": "Alice lives in Lyon"}, source="tool")
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:  # as version 3 left it
        connection.execute(f"ALTER TABLE {schema}.items DROP origin, DROP session")
        connection.execute(f"UPDATE {schema}.meta SET value = '3' WHERE name = 'schema'")

    clock.advance(10)
    with open_store() as store:
        api = Provenance("api", None)
        assert store.get(NS, "drink").provenance == api
        for mode in ("hybrid", "dense", "lexical"):
            found = store.search(NS, query="alice drinks tea", mode=mode)
            assert {item.key: item.provenance for item in found} == {"drink": api, "city": api}
        store.put(NS, "dog", {"text": "Alice has a dog"}, provenance=Provenance("user", "s-9"))
        assert store.get(NS, "dog").provenance == Provenance("user", "s-9")

    with psycopg.connect(postgres_dsn) as connection:
        version = connection.execute(
            f"SELECT value FROM {schema}.meta WHERE name = 'schema'"
        ).fetchone()
    assert version == (str(SCHEMA_VERSION),) == ("4",)
