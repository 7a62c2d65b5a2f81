"""The record file's ``meta`` table: named values, each a string.

The names: ``schema`` (:data:`~memvault.backends.sqlite.schema.SCHEMA_VERSION`, set once the
file is built), ``built`` (the file holds the store's records), ``info`` (the store's settings
as JSON: embedder name, dimension and fingerprint), ``generation`` (outbox batches the vector
index has applied), ``applying`` (the generation of a batch being applied; cleared when it
is), ``seq`` (the last outbox sequence number), ``index_stamp`` (the vector index's record
count and generation when last read, with the state of its files, so that a store opens
without starting the index while they are unchanged: ``LocalBackend._index_readings``), ``erase``
(set before an erase, cleared once the vector index keeps no copy of what was erased:
``LocalBackend.drain``). They are read and written inside the caller's hold on the connection.
"""

from __future__ import annotations

import sqlite3


def read(db: sqlite3.Connection, name: str) -> str | None:
    """The value named ``name``, or ``None`` if the file has none.

    Args:
        db: The record file's connection.
        name: One of the names above.

    Returns:
        The value as written.
    """
    row = db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
    return None if row is None else row[0]


def write(db: sqlite3.Connection, name: str, value: str) -> None:
    """Set the value named ``name`` (inside the caller's transaction).

    Args:
        db: The record file's connection.
        name: One of the names above.
        value: Its new value.
    """
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))
