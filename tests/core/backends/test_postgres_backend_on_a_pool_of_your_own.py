"""A store on a ``psycopg_pool.ConnectionPool`` the user made (its connections not in
autocommit, psycopg's default) keeps every write, searches in every mode, also by the HNSW
index, and leaves the pool open when it closes."""

import psycopg_pool

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.postgres import fresh_schema


def test_a_pool_of_your_own_keeps_writes_and_stays_open(postgres_dsn):
    schema = fresh_schema()
    with psycopg_pool.ConnectionPool(postgres_dsn, min_size=1, max_size=2, open=True) as pool:
        backend = PostgresBackend(pool=pool, schema=schema, exact_scope=0)  # HNSW for any scope
        with MemoryStore(backend=backend, embedder=HashingEmbedder(384)) as store:
            store.put_many(
                ("users", "alice"),
                [
                    ("tea", {"text": "Alice drinks green tea"}),
                    ("city", {"text": "Alice lives in Oslo"}),
                ],
            )
            for mode in ("hybrid", "dense", "lexical"):
                found = store.search(("users",), query="green tea", mode=mode, limit=1)
                assert [item.key for item in found] == ["tea"], mode
        with pool.connection() as connection:  # still open, and the rows were committed
            (rows,) = connection.execute(f"SELECT count(*) FROM {schema}.items").fetchone()
        assert rows == 2
        with MemoryStore(
            backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(384)
        ) as reopened:
            assert reopened.get(("users", "alice"), "city").value == {"text": "Alice lives in Oslo"}
