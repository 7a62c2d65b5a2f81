"""Filling the record file anew from another copy of its records (a vector index's).

:meth:`memvault.backends.sqlite.record_file.RecordFile.rebuild` runs the steps, each in a
transaction of its own: :func:`clear` the records, :func:`append` the copies in batches, then
:func:`restore_history`. The history the file held is kept (none if the file was started anew)
and brought in step with the records, with source ``"restore"``: ``"add"`` for a record whose
key has no history or whose last entry removed it, ``"update"`` for one whose last entry holds
another value, ``"delete"`` for a key whose last entry left it in place but that the copy
lacks. The changes between are lost with the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from memvault.backends.sql import RECORD_COLUMNS, record_of_row
from memvault.backends.sqlite.rows import append_history, insert, recount
from memvault.model import HistoryEntry, Record, ns_key

BATCH = 2000
"""Records :func:`append` is given at a time."""


def clear(db: sqlite3.Connection) -> None:
    """Delete every record, its words and namespace counts, and the outbox and quarantine.

    Args:
        db: The record file's connection, in a transaction.
    """
    for table in ("items", "docs", "namespaces", "outbox", "quarantine"):
        db.execute(f"DELETE FROM {table}")


def append(db: sqlite3.Connection, records: Sequence[Record], vectors: np.ndarray) -> None:
    """Write records with their embeddings, replacing any of the same id.

    Args:
        db: The record file's connection, in a transaction.
        records: The records.
        vectors: Their unit-length embeddings, shape ``(len(records), dim)``.
    """
    for record, vector in zip(records, vectors):
        db.execute("DELETE FROM items WHERE id = ?", (record.id,))
        insert(db, record, vector)
    recount(db, {ns_key(record.namespace) for record in records})


def restore_history(db: sqlite3.Connection, now: float) -> None:
    """Bring the history in step with the records (see the module docstring).

    Args:
        db: The record file's connection, in a transaction.
        now: Unix seconds, the time of the entries written.
    """
    last = {
        row[0]: (row[1], row[2])
        for row in db.execute(
            "SELECT h.id, h.event, h.after FROM history h WHERE h.seq = (SELECT g.seq "
            "FROM history g WHERE g.id = h.id ORDER BY g.at DESC, g.seq DESC LIMIT 1)"
        )
    }
    entries = []
    for row in db.execute(f"SELECT {RECORD_COLUMNS} FROM items i"):
        record = record_of_row(row)
        event, after = last.pop(row[0], (None, None))
        if event is None or event in ("delete", "expire"):
            entries.append(_restored(record, "add", None, record.value, now))
        elif json.loads(after) != record.value:
            entries.append(_restored(record, "update", json.loads(after), record.value, now))
    for item_id, (event, after) in last.items():
        if event not in ("delete", "expire"):
            *namespace, key = json.loads(item_id)
            gone = Record(tuple(namespace), key, json.loads(after), now, now, None)
            entries.append(_restored(gone, "delete", gone.value, None, now))
    append_history(db, entries)


def _restored(
    record: Record,
    event: Any,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    now: float,
) -> HistoryEntry:
    return HistoryEntry(record.namespace, record.key, event, now, before, after, "restore")
