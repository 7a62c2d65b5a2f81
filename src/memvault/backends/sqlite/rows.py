"""The rows a record and its history take in the record file, kept in step.

A record is one ``items`` row (id, namespace, key, value as JSON, times, unit embedding as
float32 bytes, its words: :func:`~memvault.backends.sqlite.terms.stored_words`), one FTS5
``docs`` row of the same ``rowid``, and a share of its namespace's ``namespaces`` row (item
count, how many never expire, the latest expiry of the others, total length in words). A
change to a key is one ``history`` row, kept after the record is deleted. Every function here
runs inside the caller's transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from memvault.backends.sql import (
    HISTORY_COLUMNS,
    RECORD_COLUMNS,
    entry_of_row,
    history_row,
    record_of_row,
)
from memvault.backends.sqlite.terms import scope_of, stored_words
from memvault.model import HistoryEntry, Namespace, Record, ns_key

_CHUNK = 500
"""Ids one ``SELECT ... WHERE id IN (...)`` asks for."""


def stored(db: sqlite3.Connection, item_id: str) -> tuple[int, str, Record] | None:
    """The row a write replaces or deletes.

    Args:
        db: The record file's connection.
        item_id: A record id (:func:`memvault.model.record_id`).

    Returns:
        Its ``rowid``, its namespace key (:func:`memvault.model.ns_key`) and the record, or
        ``None`` if the file holds no such record.
    """
    row = db.execute(
        f"SELECT i.rowid, i.ns, {RECORD_COLUMNS} FROM items i WHERE i.id = ?", (item_id,)
    ).fetchone()
    return None if row is None else (row[0], row[1], record_of_row(row[2:]))


def versions(db: sqlite3.Connection, ids: Sequence[str]) -> dict[str, tuple[Any, ...]]:
    """The rows a write replaces, for many ids at once, as read (compared cheaply).

    Args:
        db: The record file's connection.
        ids: Record ids.

    Returns:
        ``{id: (rowid, namespace key, *record columns)}`` for the ids the file holds; the
        record is ``record_of_row(row[2:])`` (:func:`memvault.backends.sql.record_of_row`).
    """
    found: dict[str, tuple[Any, ...]] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = list(ids[start : start + _CHUNK])
        rows = db.execute(
            f"SELECT i.rowid, i.ns, {RECORD_COLUMNS} FROM items i "
            f"WHERE i.id IN ({','.join('?' * len(chunk))})",
            chunk,
        )
        found.update((row[2], tuple(row)) for row in rows)
    return found


class Prepared(NamedTuple):
    """What a record's rows hold, made before the write that inserts them (:func:`prepare`).

    Attributes:
        items: The ``items`` row but its ``rowid``: id, namespace key, namespace (JSON), key,
            value (JSON), created, updated, expires, valid_from, valid_to, vector (float32
            bytes or ``None``), length in words, terms (packed), provenance origin and
            session.
        scope: Its FTS5 ``scope`` (:func:`~memvault.backends.sqlite.terms.scope_of`).
        body: Its FTS5 ``body`` (:func:`~memvault.backends.sqlite.terms.stored_words`).
    """

    items: tuple[Any, ...]
    scope: str
    body: str


def prepare(record: Record, vector: np.ndarray | None) -> Prepared:
    """The rows of a record, made without the connection (so outside any transaction).

    Args:
        record: The record as it will be stored.
        vector: Its unit-length embedding, shape ``(dim,)``, or ``None``.
    """
    length, terms, body = stored_words(record.value)
    items = (
        record.id,
        ns_key(record.namespace),
        json.dumps(list(record.namespace), ensure_ascii=False),
        record.key,
        json.dumps(record.value, ensure_ascii=False),
        record.created_at,
        record.updated_at,
        record.expires_at,
        record.valid_from,
        record.valid_to,
        None if vector is None else np.asarray(vector, dtype=np.float32).tobytes(),
        length,
        terms,
        record.provenance.origin,
        record.provenance.session,
    )
    return Prepared(items, scope_of(record.namespace), body)


def insert_prepared(db: sqlite3.Connection, prepared: Sequence[Prepared]) -> None:
    """Write records' ``items`` rows and FTS5 rows (their ids must not be stored).

    The rows take ``rowid``s above the largest in the file, so that the FTS5 rows are written
    in one statement too. The ``namespaces`` rows are not touched: :func:`recount` them after.

    Args:
        db: The record file's connection, in a transaction.
        prepared: The records' rows (:func:`prepare`).
    """
    base = db.execute("SELECT coalesce(max(rowid), 0) FROM items").fetchone()[0]
    db.executemany(
        "INSERT INTO items (rowid, id, ns, namespace, key, value, created, updated, expires, "
        "valid_from, valid_to, vector, length, terms, origin, session) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(base + n, *p.items) for n, p in enumerate(prepared, 1)],
    )
    db.executemany(
        "INSERT INTO docs (rowid, scope, body) VALUES (?, ?, ?)",
        [(base + n, p.scope, p.body) for n, p in enumerate(prepared, 1)],
    )


def insert(db: sqlite3.Connection, record: Record, vector: np.ndarray | None) -> None:
    """Write a record's ``items`` row and its FTS5 row (its id must not be stored).

    The ``namespaces`` row is not touched: :func:`recount` it after.

    Args:
        db: The record file's connection.
        record: The record.
        vector: Its unit-length embedding, shape ``(dim,)``, or ``None``.
    """
    insert_prepared(db, [prepare(record, vector)])


def index_words(db: sqlite3.Connection, rowid: int, namespace: Namespace, body: str) -> None:
    """Write the FTS5 row of the ``items`` row ``rowid``.

    Args:
        db: The record file's connection.
        rowid: The ``items`` row.
        namespace: Its record's namespace (the ``scope`` column is made of its prefixes).
        body: Its distinct words (:func:`~memvault.backends.sqlite.terms.stored_words`).
    """
    db.execute(
        "INSERT INTO docs (rowid, scope, body) VALUES (?, ?, ?)",
        (rowid, scope_of(namespace), body),
    )


def remove(db: sqlite3.Connection, rowids: Sequence[int]) -> None:
    """Delete ``items`` rows and their FTS5 rows; :func:`recount` their namespaces after.

    Args:
        db: The record file's connection.
        rowids: The ``items`` rows (:func:`stored`).
    """
    db.executemany("DELETE FROM docs WHERE rowid = ?", [(rowid,) for rowid in rowids])
    db.executemany("DELETE FROM items WHERE rowid = ?", [(rowid,) for rowid in rowids])


def recount(db: sqlite3.Connection, ns_keys: Iterable[str]) -> None:
    """Bring the ``namespaces`` rows of ``ns_keys`` in step with ``items``.

    Each row counts a namespace's records, those that never expire (``without_expiry``), the latest
    expiry of the others and their length in words, so listing namespaces and the BM25
    statistics of a scope come from one small table.

    Args:
        db: The record file's connection.
        ns_keys: Namespace keys (:func:`memvault.model.ns_key`) whose records changed.
    """
    for ns in ns_keys:
        db.execute("DELETE FROM namespaces WHERE ns = ?", (ns,))
        db.execute(
            "INSERT INTO namespaces SELECT ns, namespace, count(*), "
            "sum(expires IS NULL), max(expires), sum(length) FROM items WHERE ns = ? "
            "GROUP BY ns",
            (ns,),
        )


def append_history(db: sqlite3.Connection, entries: Iterable[HistoryEntry]) -> None:
    """Append ``history`` rows, in order.

    Args:
        db: The record file's connection.
        entries: The changes, each to one key.
    """
    append_history_rows(db, [history_row(e) for e in entries])


def append_history_rows(db: sqlite3.Connection, rows: Sequence[tuple[Any, ...]]) -> None:
    """Append ``history`` rows made beforehand (:func:`memvault.backends.sql.history_row`).

    Args:
        db: The record file's connection.
        rows: The rows, in order.
    """
    db.executemany(
        "INSERT INTO history (id, ns, at, event, source, before, after) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def scrub_history(db: sqlite3.Connection, ids: Sequence[str], present: Sequence[str]) -> list[str]:
    """Drop the values of every history entry of ``ids`` (an erase), in the caller's transaction.

    Args:
        db: The record file's connection.
        ids: Record ids being erased.
        present: Those of them that held a record.

    Returns:
        The ids that held a record or a history, in the order of ``ids``: those an erase
        records ``"erase"`` for.
    """
    with_history: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        marks = ",".join("?" * len(chunk))
        with_history.update(
            row[0]
            for row in db.execute(f"SELECT DISTINCT id FROM history WHERE id IN ({marks})", chunk)
        )
        db.execute(f"UPDATE history SET before = NULL, after = NULL WHERE id IN ({marks})", chunk)
    kept = set(present) | with_history
    return [item_id for item_id in dict.fromkeys(ids) if item_id in kept]


def compact(db: sqlite3.Connection) -> None:
    """Leave no deleted text readable in the file, after an erase (outside a transaction).

    Merges the FTS5 index into one segment (``'optimize'``: a deleted row's words stay in the
    older segments until they are merged), rewrites the file (``VACUUM``; with
    ``secure_delete`` on, SQLite zeroes the pages it frees) and empties the write-ahead log
    (``wal_checkpoint(TRUNCATE)``), which held the pages as they were. See SQLite's
    documentation of ``PRAGMA secure_delete``, ``VACUUM`` and FTS5's ``optimize``.

    Args:
        db: The record file's connection, in autocommit (no transaction open).
    """
    db.execute("PRAGMA secure_delete = ON")
    db.execute("INSERT INTO docs (docs) VALUES ('optimize')")
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def history_of(db: sqlite3.Connection, item_id: str) -> list[HistoryEntry]:
    """Every change to the record ``item_id``, oldest first (by ``at``, then as written).

    Args:
        db: The record file's connection.
        item_id: A record id (:func:`memvault.model.record_id`).

    Returns:
        The entries; none if the key never changed.
    """
    rows = db.execute(
        f"SELECT {HISTORY_COLUMNS} FROM history WHERE id = ? ORDER BY at, seq", (item_id,)
    )
    return [entry_of_row(row) for row in rows]
