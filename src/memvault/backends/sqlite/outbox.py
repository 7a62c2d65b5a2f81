"""The record file's index writes still to do: the outbox and the quarantine.

The **outbox** holds one row per record id whose change the vector index has not applied,
with the sequence number of the write that queued it (``meta.seq``, one per write); a drain
(:meth:`memvault.backends.local.LocalBackend.drain`) applies it in batches and clears the
rows it applied, so a row re-queued by a later write meanwhile stays. The **quarantine**
holds the ids the index refused, with the reason; a later write of an id takes it out. Both
are searched exactly until the index holds them. Every function here runs inside the
caller's hold on the connection; those that write, inside its transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memvault.backends.sql import under
from memvault.backends.sqlite import meta
from memvault.model import Namespace


def next_seq(db: sqlite3.Connection) -> int:
    """Take the next outbox sequence number (one per write).

    Args:
        db: The record file's connection, in a transaction.

    Returns:
        The number, one above the last taken.
    """
    seq = int(meta.read(db, "seq") or 0) + 1
    meta.write(db, "seq", str(seq))
    return seq


def queue(db: sqlite3.Connection, ids: Sequence[str], seq: int) -> None:
    """Put ids in the outbox for the vector index (and out of quarantine).

    Args:
        db: The record file's connection, in a transaction.
        ids: Record ids written or deleted.
        seq: The write's sequence number (:func:`next_seq`).
    """
    db.executemany("INSERT OR REPLACE INTO outbox VALUES (?, ?)", [(i, seq) for i in ids])
    if db.execute("SELECT 1 FROM quarantine LIMIT 1").fetchone() is not None:
        db.executemany("DELETE FROM quarantine WHERE id = ?", [(i,) for i in ids])


def pending(db: sqlite3.Connection, limit: int) -> list[tuple[str, int]]:
    """Up to ``limit`` ``(id, seq)`` rows the vector index has not applied, oldest first.

    Args:
        db: The record file's connection.
        limit: Most rows.

    Returns:
        The rows, by sequence number, then id.
    """
    return db.execute("SELECT id, seq FROM outbox ORDER BY seq, id LIMIT ?", (limit,)).fetchall()


def size(db: sqlite3.Connection) -> int:
    """How many ids wait in the outbox.

    Args:
        db: The record file's connection.
    """
    return db.execute("SELECT count(*) FROM outbox").fetchone()[0]


def holds(db: sqlite3.Connection, count: int) -> bool:
    """Whether at least ``count`` ids wait in the outbox, reading at most ``count`` rows.

    Every write asks (:meth:`memvault.backends.local.LocalBackend.upsert`); counting an outbox
    of 200,000 ids took each put beside a bulk write 20 ms.

    Args:
        db: The record file's connection.
        count: How many.
    """
    found = db.execute("SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT ?)", (count,))
    return bool(found.fetchone()[0] >= count)


def unindexed(db: sqlite3.Connection, prefix: Namespace) -> set[str]:
    """Ids of records under ``prefix`` that the index lags on: in the outbox or in quarantine.

    Args:
        db: The record file's connection.
        prefix: Namespace prefix; ``()`` covers all.
    """
    sql = (
        "SELECT i.id FROM items i WHERE i.id IN "
        "(SELECT id FROM outbox UNION SELECT id FROM quarantine)"
    )
    scope, params = under(prefix, "i.ns", "?")
    return {row[0] for row in db.execute(f"{sql} AND {scope}", params)}


def requeue_all(db: sqlite3.Connection, generation: int) -> int:
    """Put every record in the outbox and empty the quarantine; set the index ``generation``.

    Args:
        db: The record file's connection, in a transaction.
        generation: The index's generation, which the file takes on.

    Returns:
        How many ids were queued.
    """
    meta.write(db, "generation", str(generation))
    db.execute("DELETE FROM meta WHERE name = 'applying'")
    seq = next_seq(db)
    db.execute("INSERT OR REPLACE INTO outbox SELECT id, ? FROM items", (seq,))
    db.execute("DELETE FROM quarantine")
    return size(db)


def mark_applied(
    db: sqlite3.Connection,
    applied: Sequence[tuple[str, int]],
    refused: dict[str, str],
    *,
    generation: int,
) -> None:
    """Clear the outbox rows the index applied, quarantine what it refused, set ``generation``.

    A row re-queued by a later write (a higher ``seq``) stays.

    Args:
        db: The record file's connection, in a transaction.
        applied: ``(id, seq)`` rows as :func:`pending` gave them.
        refused: ``{id: reason}`` for the ids the index refused.
        generation: The index's generation after the batch.
    """
    db.executemany("DELETE FROM outbox WHERE id = ? AND seq = ?", [tuple(row) for row in applied])
    db.executemany("INSERT OR REPLACE INTO quarantine VALUES (?, ?)", list(refused.items()))
    meta.write(db, "generation", str(generation))
    db.execute("DELETE FROM meta WHERE name = 'applying'")


def quarantined(db: sqlite3.Connection) -> dict[str, str]:
    """Ids the vector index refused, with the reason.

    Args:
        db: The record file's connection.
    """
    return dict(db.execute("SELECT id, reason FROM quarantine").fetchall())
