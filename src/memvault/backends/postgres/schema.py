"""A Postgres store's tables, its schema version, the migrations to it, and its ``meta`` values.

One schema (:data:`DEFAULT_SCHEMA` unless another is given, :func:`check_schema_name`) holds
``items``, ``history`` and ``meta`` (see :mod:`memvault.backends.postgres`). :func:`open_schema`
creates them in an empty schema, checks them in one that holds a store, and migrates a schema
of an older version forward (:data:`MIGRATIONS`, run by :func:`memvault.backends.sql.migrate`),
all inside the transaction that opens the store, under :data:`SETUP_LOCK`. The embedding column
gets its dimension and HNSW index at the first write (:func:`fix_dim`), under the same lock.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memvault.backends.sql import migrate
from memvault.errors import (
    BackendError,
    InvalidArgumentError,
    StoreDamagedError,
    StoreVersionError,
)

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "DEFAULT_SCHEMA",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SETUP_LOCK",
    "check_schema_name",
    "fix_dim",
    "open_schema",
    "read_meta",
    "write_meta",
]

SCHEMA_VERSION = 4
"""The version of the tables this module writes, kept in ``meta``. A schema at an older
version is migrated forward at open, in the opening transaction; a newer one is refused.
Version 2: the ``ns`` index carries ``expires`` and ``length``, so that a scope's count and
mean length (dense and BM25 searches) are read from the index alone; and ``items`` keeps a
record in its row up to a page (:data:`_ROW_TARGET`). Version 3: ``items`` keeps each
record's validity, ``valid_from`` and ``valid_to`` (Unix seconds; ``NULL``: still holds; see
:class:`~memvault.model.Validity`). Version 4: ``items`` keeps each record's provenance,
``origin`` and ``session`` (:class:`~memvault.model.Provenance`; ``NULL`` in a record written
before: ``"api"``, no session)."""

DEFAULT_SCHEMA = "memvault"
"""The Postgres schema that holds a store's tables unless another is given."""

SETUP_LOCK = 0x6D656D7661756C74  # "memvault"
"""The transaction-level advisory lock that serialises opening a store and its first write."""

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_ROW_TARGET = "toast_tuple_target = 8160"
"""Rows of ``items`` stay whole up to 8,160 bytes (the most Postgres allows) instead of 2,032:
a record of a 384-d embedding (1.5 kB), its words and a value with context is 3-4 kB, and by
default Postgres moves its embedding out of the row (TOAST, the embedding being the largest
column it may move), and an exact dense ranking then reads each embedding from the TOAST
table: several times slower than with the records whole (``bench/README.md``)."""
_NS_INDEX = "CREATE INDEX items_by_ns ON {s}.items (ns) INCLUDE (expires, length)"
"""A scope's count and mean length come from this index alone (an index-only scan)."""


def check_schema_name(schema: object) -> str:
    """``schema`` if it can name a store's Postgres schema, unquoted.

    Args:
        schema: 1-63 lower-case ASCII letters, digits or ``_``, not starting with a digit,
            nor with ``pg_``, nor ``information_schema``. (An SQL keyword is refused by the
            server's list when the backend opens.)

    Raises:
        InvalidArgumentError: Naming the rule, for anything else.
    """
    if (
        not isinstance(schema, str)
        or not _SCHEMA_NAME.fullmatch(schema)
        or schema.startswith("pg_")
        or schema == "information_schema"
    ):
        raise InvalidArgumentError(
            f"schema must be 1-63 lower-case letters, digits or '_' (not starting with a "
            f"digit, nor 'pg_', nor information_schema), got {schema!r}"
        )
    return schema


def open_schema(cur: psycopg.Cursor[Any], s: str, *, address: str, create: bool) -> int | None:
    """Create or check the store's tables, under a lock that serialises every opener.

    Args:
        cur: A cursor in the transaction that opens the store.
        s: The store's schema (:func:`check_schema_name`).
        address: Where the server is, for messages.
        create: Whether to create the ``vector`` extension, the schema and its tables where
            missing; with ``False`` a schema without tables is an error.

    Returns:
        The embedding dimension recorded in ``meta``, ``None`` before the first write.

    Raises:
        InvalidArgumentError: If ``s`` is an SQL keyword, or (``create=False``) holds no store.
        BackendError: If the role may not create the ``vector`` extension.
        StoreVersionError: If the schema was written by a newer memvault.
        StoreDamagedError: If the schema holds tables that are not memvault's.
    """
    import psycopg

    cur.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
    cur.execute("SELECT 1 FROM pg_get_keywords() WHERE word = %s AND catcode <> 'U'", (s,))
    if cur.fetchone() is not None:
        raise InvalidArgumentError(
            f"schema {s!r} is an SQL keyword of PostgreSQL; give another schema name"
        )
    if not create:
        cur.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = %s", (s,))
        if cur.fetchone() is None:
            raise InvalidArgumentError(
                f"no memvault store in schema {s!r} at {address}; check the schema "
                "(and the database), or create the store (PostgresBackend(create=True), "
                "'memvault --dsn ... ingest')"
            )
    cur.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
    if cur.fetchone() is None:
        try:
            cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.errors.InsufficientPrivilege as error:
            raise BackendError(
                f"the PostgreSQL server at {address} refuses this role the "
                "creation of the pgvector extension: run CREATE EXTENSION vector once "
                "in this database as its owner (or a superuser)"
            ) from error
    cur.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (s,))
    if cur.fetchone() is None:  # a role that may only use the tables need not create
        cur.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
    cur.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
        (s,),
    )
    tables = {row[0] for row in cur.fetchall()}
    if not tables:
        _create(cur, s)
        return None
    if "meta" not in tables:
        raise StoreDamagedError(
            f"schema {s!r} at {address} holds tables {sorted(tables)} that are "
            "not memvault's; give PostgresBackend another schema"
        )
    version = read_meta(cur, s, "schema")
    if version is None or not version.isdigit():
        raise StoreDamagedError(
            f"schema {s!r} at {address} has no memvault schema version; give "
            "PostgresBackend another schema"
        )
    if int(version) > SCHEMA_VERSION:
        raise StoreVersionError(
            f"schema {s!r} at {address} was written by a newer memvault (schema "
            f"version {version}; this one reads up to {SCHEMA_VERSION}): upgrade "
            "memvault"
        )
    if int(version) < SCHEMA_VERSION:
        steps = {v: functools.partial(step, cur, s) for v, step in MIGRATIONS.items()}
        migrate(int(version), steps, SCHEMA_VERSION)
        write_meta(cur, s, "schema", str(SCHEMA_VERSION))
    dim = read_meta(cur, s, "dim")
    return None if dim is None else int(dim)


def _create(cur: psycopg.Cursor[Any], s: str) -> None:
    """The tables of schema :data:`SCHEMA_VERSION` in the empty schema ``s``."""
    for statement in (
        f"CREATE TABLE {s}.meta (name text PRIMARY KEY, value text NOT NULL)",
        f"""CREATE TABLE {s}.items (
            id text COLLATE "C" PRIMARY KEY,
            ns text COLLATE "C" NOT NULL,
            value json NOT NULL,
            created double precision NOT NULL,
            updated double precision NOT NULL,
            expires double precision,
            embedding vector,
            words tsvector NOT NULL,
            length integer NOT NULL,
            valid_from double precision NOT NULL,
            valid_to double precision,
            origin text,
            session text
        ) WITH ({_ROW_TARGET})""",
        _NS_INDEX.format(s=s),
        f"CREATE INDEX items_by_recency ON {s}.items (updated DESC, id)",
        f"CREATE INDEX items_words ON {s}.items USING gin (words)",
        f"""CREATE TABLE {s}.history (
            seq bigserial PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            ns text COLLATE "C" NOT NULL,
            at double precision NOT NULL,
            event text NOT NULL,
            source text NOT NULL,
            before json,
            after json
        )""",
        f"CREATE INDEX history_by_id ON {s}.history (id, at, seq)",
        f"CREATE INDEX history_by_ns ON {s}.history (ns)",
    ):
        cur.execute(statement)
    write_meta(cur, s, "schema", str(SCHEMA_VERSION))


def _to_2(cur: psycopg.Cursor[Any], s: str) -> None:
    """Schema 1 to 2: rows kept whole, the ``ns`` index carrying ``expires`` and ``length``.

    Records written before stay as they are until updated.
    """
    cur.execute(f"ALTER TABLE {s}.items SET ({_ROW_TARGET})")
    cur.execute(f"DROP INDEX {s}.items_by_ns")
    cur.execute(_NS_INDEX.format(s=s))


def _to_3(cur: psycopg.Cursor[Any], s: str) -> None:
    """Schema 2 to 3: ``valid_from`` and ``valid_to`` on ``items``.

    A record written before holds from its ``updated`` time (as
    :class:`~memvault.model.Record` has it without a ``valid_from``), still (``valid_to``
    ``NULL``).
    """
    cur.execute(
        f"ALTER TABLE {s}.items ADD COLUMN valid_from double precision, "
        "ADD COLUMN valid_to double precision"
    )
    cur.execute(f"UPDATE {s}.items SET valid_from = updated")
    cur.execute(f"ALTER TABLE {s}.items ALTER COLUMN valid_from SET NOT NULL")


def _to_4(cur: psycopg.Cursor[Any], s: str) -> None:
    """Schema 3 to 4: ``origin`` and ``session`` on ``items``.

    ``NULL`` in every record kept: it reads as written through the API in no session
    (``Provenance("api", None)``). Adding a nullable column without a default rewrites no row.
    """
    cur.execute(f"ALTER TABLE {s}.items ADD COLUMN origin text, ADD COLUMN session text")


MIGRATIONS: dict[int, Callable[[psycopg.Cursor[Any], str], None]] = {
    2: _to_2,
    3: _to_3,
    4: _to_4,
}
"""``{version: step}``: each step turns schema ``s`` of the version before into this version."""


def fix_dim(cur: psycopg.Cursor[Any], s: str, dim: int) -> int:
    """The store's embedding dimension, fixed at ``dim`` if none is yet (the first write).

    Under :data:`SETUP_LOCK`: the first write types the embedding column ``vector(dim)``,
    creates its HNSW index (cosine distance) and records ``dim`` in ``meta``.

    Args:
        cur: A cursor in the writing transaction.
        s: The store's schema.
        dim: The dimension of the embeddings written.

    Returns:
        The dimension recorded: ``dim``, or the one a writer before recorded.
    """
    cur.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
    recorded = read_meta(cur, s, "dim")
    if recorded is None:
        cur.execute(f"ALTER TABLE {s}.items ALTER COLUMN embedding TYPE vector({dim})")
        cur.execute(
            f"CREATE INDEX items_embedding ON {s}.items USING hnsw (embedding vector_cosine_ops)"
        )
        write_meta(cur, s, "dim", str(dim))
        recorded = str(dim)
    return int(recorded)


def read_meta(cur: psycopg.Cursor[Any], s: str, name: str) -> str | None:
    """The ``meta`` value ``name`` of schema ``s``, or ``None``."""
    cur.execute(f"SELECT value FROM {s}.meta WHERE name = %s", (name,))
    row = cur.fetchone()
    return None if row is None else str(row[0])


def write_meta(cur: psycopg.Cursor[Any], s: str, name: str, value: str) -> None:
    """Set the ``meta`` value ``name`` of schema ``s`` to ``value``."""
    cur.execute(
        f"INSERT INTO {s}.meta VALUES (%s, %s) "
        "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
        (name, value),
    )
