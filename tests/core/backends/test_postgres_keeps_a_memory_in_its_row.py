"""A memory the size agents save (a turn with its context, its words and a 384-d embedding,
about 3.5 kB) stays whole in its Postgres row: nothing is moved to the TOAST table, so a dense
ranking reads each embedding from the row it scans."""

import psycopg

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.postgres import fresh_schema


def test_a_turn_with_context_is_stored_in_its_row(postgres_dsn):
    schema = fresh_schema()
    context = " ".join(
        f"Caroline said she went to the support group on day {n}." for n in range(12)
    )
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(384)
    ) as store:
        store.put_many(
            ("locomo", "conv-26"),
            [
                (f"D1:{n}", {"text": f"I went to a support group, day {n}.", "context": context})
                for n in range(20)
            ],
        )
        assert len(store.search(("locomo",), query="support group", mode="dense", limit=20)) == 20
    with psycopg.connect(postgres_dsn) as connection:
        row, toast = connection.execute(
            f"SELECT (SELECT avg(pg_column_size(i.*)) FROM {schema}.items i), "
            "pg_relation_size(reltoastrelid) FROM pg_class WHERE oid = %s::regclass",
            (f"{schema}.items",),
        ).fetchone()
    assert row > 2_100  # above Postgres's default TOAST threshold of 2,032 bytes
    assert toast == 0
