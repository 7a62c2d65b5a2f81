"""The record file's tables, its schema version and the migrations to it.

Tables: ``items`` and the FTS5 ``docs`` of their words, ``namespaces``, ``history``
(:mod:`memvault.backends.sqlite.rows`), ``outbox`` and ``quarantine``
(:mod:`memvault.backends.sqlite.outbox`), ``meta`` (:mod:`memvault.backends.sqlite.meta`).
The ``history`` table came without a schema bump (``CREATE TABLE IF NOT EXISTS``): a file
written before it opens as it is and starts keeping history. Schema 3 added the words columns
and made the FTS5 index hold folded words; schema 4 named the count of a namespace's records
that never expire ``without_expiry`` (was ``lasting``); schema 5 added each record's validity
(``valid_from``, ``valid_to``); schema 6 its provenance (``origin``, ``session``). A file of
an older schema is migrated in place when it is opened, inside the opening transaction
(:data:`MIGRATIONS`, run by :func:`memvault.backends.sql.migrate`).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable

from memvault.backends.sql import migrate
from memvault.backends.sqlite import meta, outbox
from memvault.backends.sqlite.rows import index_words, recount
from memvault.backends.sqlite.terms import stored_words
from memvault.errors import StoreVersionError

SCHEMA_VERSION = 6
"""The schema this memvault writes, kept in ``meta.schema``.

2: the FTS5 index held raw text, ranked by its ``bm25()``. 3: each record's words
(``items.length``, ``items.terms``) and each namespace's (``namespaces.words``), the FTS5
index of folded words. 4: ``namespaces.without_expiry`` (was ``lasting``), how many of a
namespace's records never expire. 5: ``items.valid_from`` and ``items.valid_to``, when a
record holds in the world (:class:`memvault.model.Validity`). 6: ``items.origin`` and
``items.session``, who wrote a record and in which session (:class:`memvault.model.Provenance`;
``NULL`` in a record written before: ``"api"``, no session).
"""

_TABLES = """
CREATE TABLE IF NOT EXISTS items (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ns TEXT NOT NULL,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    expires REAL,
    valid_from REAL NOT NULL,
    valid_to REAL,
    vector BLOB,
    length INTEGER NOT NULL DEFAULT 0,
    terms BLOB NOT NULL DEFAULT x'',
    origin TEXT,
    session TEXT
);
CREATE INDEX IF NOT EXISTS items_by_ns ON items (ns);
CREATE INDEX IF NOT EXISTS items_by_recency ON items (updated DESC, id);
CREATE TABLE IF NOT EXISTS namespaces (
    ns TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    items INTEGER NOT NULL,
    without_expiry INTEGER NOT NULL,
    expires_max REAL,
    words INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS quarantine (id TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
DROP TABLE IF EXISTS pending;
CREATE TABLE IF NOT EXISTS history (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    ns TEXT NOT NULL,
    at REAL NOT NULL,
    event TEXT NOT NULL,
    source TEXT NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX IF NOT EXISTS history_by_id ON history (id, at, seq);
CREATE INDEX IF NOT EXISTS history_by_ns ON history (ns);
"""
# The FTS5 index of folded words (memvault.lexical.fold) and namespace prefix words; it only
# finds records (no bm25()), so each word is one token: '_' is a word character as in ``\w``.
_DOCS = """
CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(
    scope, body, tokenize = "unicode61 remove_diacritics 0 tokenchars '_'"
)
"""
_COLUMNS = {
    "items": {
        "rowid",
        "id",
        "ns",
        "namespace",
        "key",
        "value",
        "created",
        "updated",
        "expires",
        "valid_from",
        "valid_to",
        "vector",
        "length",
        "terms",
        "origin",
        "session",
    },
    "namespaces": {"ns", "namespace", "items", "without_expiry", "expires_max", "words"},
    "outbox": {"id", "seq"},
    "quarantine": {"id", "reason"},
    "meta": {"name", "value"},
    "history": {"seq", "id", "ns", "at", "event", "source", "before", "after"},
}
_BATCH = 500
"""Records a migration reads at a time."""


def create(db: sqlite3.Connection) -> None:
    """Create the tables a file lacks and migrate a file of an older schema, in a transaction.

    Args:
        db: The record file's connection, in the transaction that opens it.

    Raises:
        StoreVersionError: If a newer memvault wrote the file (its ``meta.schema`` is above
            :data:`SCHEMA_VERSION`): it is refused as it is, not taken for damage and
            rebuilt, which would lose its history.
    """
    has_meta = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    stored = meta.read(db, "schema") if has_meta else None  # before any table is touched
    if stored is not None and stored.isdigit() and int(stored) > SCHEMA_VERSION:
        raise StoreVersionError(
            f"the record file is of schema {stored}, written by a newer memvault; this one "
            f"reads schemas up to {SCHEMA_VERSION}: upgrade memvault to open it"
        )
    for statement in _TABLES.split(";"):
        if statement.strip():
            db.execute(statement)
    found = _version_of_tables(db)
    if found < SCHEMA_VERSION:
        steps = {version: functools.partial(step, db) for version, step in MIGRATIONS.items()}
        migrate(found, steps, SCHEMA_VERSION)
        if meta.read(db, "schema") is not None:
            meta.write(db, "schema", str(SCHEMA_VERSION))
    db.execute(_DOCS)


def check(db: sqlite3.Connection) -> None:
    """Check that the file's tables and schema version are memvault's.

    Args:
        db: The record file's connection.

    Raises:
        sqlite3.DatabaseError: If a table has other columns, or the version is not
            :data:`SCHEMA_VERSION` (the caller says the file is damaged).
    """
    for table, wanted in _COLUMNS.items():
        columns = _columns(db, table)
        if columns != wanted:
            raise sqlite3.DatabaseError(
                f"table {table} has columns {sorted(columns)}, not memvault's"
            )
    schema = meta.read(db, "schema")
    if schema is not None and schema != str(SCHEMA_VERSION):
        raise sqlite3.DatabaseError(f"schema version {schema}, not {SCHEMA_VERSION}")


def _version_of_tables(db: sqlite3.Connection) -> int:
    """The schema the file's tables have, told by their columns (a new file's are the latest).

    The columns, not ``meta.schema``, which a file gets only once it is built.
    """
    if _columns(db, "items") == _COLUMNS["items"] - {
        "length",
        "terms",
        "valid_from",
        "valid_to",
        "origin",
        "session",
    }:
        return 2
    if "lasting" in _columns(db, "namespaces"):
        return 3
    if "valid_from" not in _columns(db, "items"):
        return 4
    if "origin" not in _columns(db, "items"):
        return 5
    return SCHEMA_VERSION


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    return columns | {"rowid"} if table == "items" else columns


def _to_3(db: sqlite3.Connection) -> None:
    """Bring a schema-2 file to schema 3, inside the opening transaction.

    Adds each record's words (``length``, ``terms``) and each namespace's ``words``, and
    rebuilds the FTS5 index on folded words; records, history and the outbox are kept.
    """
    db.execute("ALTER TABLE items ADD COLUMN length INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE items ADD COLUMN terms BLOB NOT NULL DEFAULT x''")
    db.execute("ALTER TABLE namespaces ADD COLUMN words INTEGER NOT NULL DEFAULT 0")
    db.execute("DROP TABLE IF EXISTS docs")
    db.execute(_DOCS)
    last = 0
    while True:
        rows = db.execute(
            "SELECT rowid, namespace, value FROM items WHERE rowid > ? ORDER BY rowid LIMIT ?",
            (last, _BATCH),
        ).fetchall()
        for rowid, namespace, value in rows:
            length, terms, body = stored_words(json.loads(value))
            db.execute(
                "UPDATE items SET length = ?, terms = ? WHERE rowid = ?", (length, terms, rowid)
            )
            index_words(db, rowid, tuple(json.loads(namespace)), body)
        if len(rows) < _BATCH:
            break
        last = rows[-1][0]
    recount(db, (row[0] for row in db.execute("SELECT ns FROM namespaces").fetchall()))


def _to_4(db: sqlite3.Connection) -> None:
    """Bring a schema-3 file to schema 4, inside the opening transaction.

    Renames ``namespaces.lasting`` to ``without_expiry``; its counts and every other row are
    kept as they are. ``RENAME COLUMN`` needs SQLite 3.25; memvault runs on 3.35 or later,
    the floor of chromadb, which refuses an older SQLite at import.
    """
    db.execute("ALTER TABLE namespaces RENAME COLUMN lasting TO without_expiry")


def _to_5(db: sqlite3.Connection) -> None:
    """Bring a schema-4 file to schema 5, inside the opening transaction.

    Adds ``items.valid_from`` (each record holds from its ``updated``, as a record written
    without one does) and ``items.valid_to`` (``NULL``: still holds). SQLite cannot add a
    ``NOT NULL`` column without a constant default, so ``valid_from`` defaults to 0 and is set
    from ``updated`` at once; every write gives it. Every record is queued for the vector index
    again, which then gets its validity metadata (until it has, the record is ranked exactly,
    as any record the index lags on).
    """
    db.execute("ALTER TABLE items ADD COLUMN valid_from REAL NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE items ADD COLUMN valid_to REAL")
    db.execute("UPDATE items SET valid_from = updated")
    seq = outbox.next_seq(db)
    db.execute("INSERT OR REPLACE INTO outbox (id, seq) SELECT id, ? FROM items", (seq,))


def _to_6(db: sqlite3.Connection) -> None:
    """Bring a schema-5 file to schema 6, inside the opening transaction.

    Adds ``items.origin`` and ``items.session``, ``NULL`` in every record kept: it reads as
    written through the API in no session (``Provenance("api", None)``). Nothing else
    changes; the vector index holds no provenance, so nothing is queued for it.
    """
    db.execute("ALTER TABLE items ADD COLUMN origin TEXT")
    db.execute("ALTER TABLE items ADD COLUMN session TEXT")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    3: _to_3,
    4: _to_4,
    5: _to_5,
    6: _to_6,
}
"""``{version: step}``: each step turns a file of the version before into this version."""
