"""The Postgres backend's failures are memvault's typed errors that say what to do, never a raw
psycopg error: a server that cannot be reached (naming its socket), another embedder, a schema
of a newer memvault or of someone else, tables dropped under it, bad options (a malformed dsn, a
schema named by an SQL keyword), a pool given that is not open, a schema without a store where
none is to be created, a missing extra; and a role that may only use the tables opens the
store."""

import concurrent.futures
import subprocess
import sys

import psycopg
import pytest

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from memvault.backends.postgres.schema import SCHEMA_VERSION
from memvault.errors import (
    BackendUnavailableError,
    EmbedderMismatchError,
    InvalidArgumentError,
    StoreBusyError,
    StoreDamagedError,
    StoreVersionError,
)
from memvault.model import Change, Record
from tests.core.processes import REPO
from tests.postgres import fresh_schema


def test_a_server_that_cannot_be_reached_is_named(tmp_path):
    socket_folder = tmp_path / "no-server-here"
    socket_folder.mkdir()
    with pytest.raises(BackendUnavailableError) as raised:
        PostgresBackend(f"postgresql://postgres@/postgres?host={socket_folder}", timeout=2)
    assert str(socket_folder) in str(raised.value)
    assert isinstance(raised.value.__cause__, psycopg.OperationalError)


def test_a_pool_given_that_is_not_open_is_named(postgres_dsn):
    import psycopg_pool

    pool = psycopg_pool.ConnectionPool(postgres_dsn, open=False)
    with pytest.raises(BackendUnavailableError, match=r"pool given .* is not open.*pool\.open\(\)"):
        PostgresBackend(pool=pool, schema=fresh_schema())


def test_a_schema_without_a_store_is_refused_when_not_to_be_created(postgres_dsn):
    schema = fresh_schema()
    with pytest.raises(InvalidArgumentError, match=f"no memvault store in schema '{schema}'"):
        PostgresBackend(postgres_dsn, schema=schema, create=False)
    with psycopg.connect(postgres_dsn) as connection:
        made = connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,))
        assert made.fetchone() is None
    PostgresBackend(postgres_dsn, schema=schema).close()  # created
    PostgresBackend(postgres_dsn, schema=schema, create=False).close()  # now it opens


def test_another_embedder_is_refused(postgres_dsn):
    schema = fresh_schema()
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        store.put(("u",), "k", {"text": "tea"})
    with pytest.raises(EmbedderMismatchError):
        MemoryStore(
            backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(32)
        )


def test_embeddings_of_another_dimension_are_refused_by_the_backend(postgres_dsn):
    backend = PostgresBackend(postgres_dsn, schema=fresh_schema())
    record = Record(("u",), "k", {"text": "tea"}, 1.0, 1.0, None)
    backend.upsert([record], [[1.0] * 8], now=1.0, change=Change())
    with pytest.raises(EmbedderMismatchError, match="dimension 8, not 4"):
        backend.upsert([record], [[1.0] * 4], now=2.0, change=Change())
    assert [e.event for e in backend.history(("u",), "k")] == ["add"]
    backend.close()


def test_a_schema_of_a_newer_memvault_is_refused(postgres_dsn):
    schema = fresh_schema()
    PostgresBackend(postgres_dsn, schema=schema).close()
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute(
            f"UPDATE {schema}.meta SET value = %s WHERE name = 'schema'", (str(SCHEMA_VERSION + 1),)
        )
    with pytest.raises(StoreVersionError, match="newer memvault"):
        PostgresBackend(postgres_dsn, schema=schema)


def test_a_schema_holding_other_tables_is_refused(postgres_dsn):
    schema = fresh_schema()
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
        connection.execute(f"CREATE TABLE {schema}.orders (id int)")
    with pytest.raises(StoreDamagedError, match="not memvault's"):
        PostgresBackend(postgres_dsn, schema=schema)


def test_tables_dropped_under_a_store_give_a_typed_error(postgres_dsn):
    schema = fresh_schema()
    backend = PostgresBackend(postgres_dsn, schema=schema)
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute(f"DROP TABLE {schema}.items")
    with pytest.raises(StoreDamagedError, match="missing or changed"):
        backend.count((), now=0.0)
    backend.close()


@pytest.mark.parametrize(
    "options",
    [
        {"schema": "Bad-Name"},
        {"schema": ""},
        {"exact_scope": -1},
        {"pool": object()},
        {"max_connections": 0},
        {"lock_timeout": 0},
        {"schema": "pg_catalog"},
        {"schema": "information_schema"},
    ],
    ids=[
        "schema-case",
        "schema-empty",
        "exact-scope",
        "dsn-and-pool",
        "connections",
        "lock",
        "schema-pg",
        "schema-information",
    ],
)
def test_bad_options_are_refused_before_connecting(options):
    with pytest.raises(InvalidArgumentError):
        PostgresBackend("postgresql://nowhere.invalid/db", **options)


def test_without_the_extra_the_error_names_it():
    script = (
        "import sys; sys.modules['psycopg'] = None\n"
        "import memvault\n"
        "from memvault import PostgresBackend\n"
        "try:\n"
        "    PostgresBackend('postgresql:///x')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert "pip install 'memvault[postgres]'" in out.stdout


def test_words_that_fold_to_nothing_are_stored_and_found(postgres_dsn):
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=fresh_schema()), embedder=HashingEmbedder(64)
    ) as store:
        store.put(("u",), "k", {"text": "Caroline' s dog \u0301 _ 's"})
        for query in ("s", "dog", "_"):
            assert [i.key for i in store.search(("u",), query=query, mode="lexical")] == ["k"]


def test_a_write_waiting_past_lock_timeout_is_busy(postgres_dsn):
    from memvault.backends.postgres.writes import lock_keys

    schema = fresh_schema()
    backend = PostgresBackend(postgres_dsn, schema=schema, lock_timeout=0.2)
    record = Record(("u",), "k", {"text": "tea"}, 1.0, 1.0, None)
    with psycopg.connect(postgres_dsn) as holder:  # another writer of the key, never done
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (lock_keys(schema, [record.id])[0],))
        with pytest.raises(StoreBusyError, match="another writer"):
            backend.upsert([record], [[1.0] * 4], now=1.0, change=Change())
    backend.upsert([record], [[1.0] * 4], now=1.0, change=Change())  # free again
    assert backend.get([record.id]) == [record]
    backend.close()


def test_connections_the_server_dropped_are_replaced(postgres_dsn):
    backend = PostgresBackend(postgres_dsn, schema=fresh_schema(), max_connections=4)
    with concurrent.futures.ThreadPoolExecutor(4) as threads:  # the pool opens 4 connections
        assert list(threads.map(lambda _: backend.count((), now=0.0), range(16))) == [0] * 16
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:  # e.g. a server restart
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
    assert backend.count((), now=0.0) == 0  # a read: sent again on a new connection
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
    record = Record(("u",), "k", {"text": "tea"}, 1.0, 1.0, None)
    backend.upsert([record], [[1.0, 0.0]], now=1.0, change=Change())  # a write: checked first
    assert backend.get([record.id]) == [record]
    backend.close()


@pytest.mark.parametrize("dsn", ["mysql://x@y/z", "not a dsn"])
def test_a_malformed_dsn_is_named_before_connecting(dsn):
    with pytest.raises(InvalidArgumentError, match="dsn is not a PostgreSQL connection string"):
        PostgresBackend(dsn)


@pytest.mark.parametrize("schema", ["user", "order", "select"])
def test_a_schema_named_by_an_sql_keyword_is_refused(postgres_dsn, schema):
    with pytest.raises(InvalidArgumentError, match="SQL keyword"):
        PostgresBackend(postgres_dsn, schema=schema)


def test_a_role_that_may_only_use_the_tables_opens_the_store(postgres_dsn):
    schema, role = fresh_schema(), f"r_{fresh_schema()}"
    with MemoryStore(
        backend=PostgresBackend(postgres_dsn, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        store.put(("u",), "k", {"text": "tea"})
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:
        database = admin.info.dbname
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"REVOKE CREATE ON DATABASE {database} FROM PUBLIC")
        admin.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        admin.execute(
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}"
        )
        admin.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
    as_role = psycopg.conninfo.make_conninfo(postgres_dsn, user=role)
    with MemoryStore(
        backend=PostgresBackend(as_role, schema=schema), embedder=HashingEmbedder(64)
    ) as store:
        assert [item.key for item in store.search(("u",), query="tea")] == ["k"]
        store.put(("u",), "k2", {"text": "coffee"})
