"""A Postgres store's writes: records and their history in one transaction, key by key.

Every write takes a transaction-level advisory lock per key (:func:`lock_keys`: in one sorted
order, so two writers never deadlock) before it reads the versions it replaces (``FOR
UPDATE``), so two processes writing one key are serialised by the database; a
compare-and-set (:attr:`memvault.model.Change.expected`, a delete's ``expected``) is checked
against those versions, under those locks (:mod:`memvault.compare_and_set`). The functions here run
inside the caller's transaction (:meth:`Connections.transaction
<memvault.backends.postgres.connections.Connections.transaction>`), after :func:`wait_for`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from memvault.backends.postgres.words import tsvector_of
from memvault.backends.sql import (
    HISTORY_COLUMNS,
    RECORD_COLUMNS,
    entry_of_row,
    history_row,
    json_text,
    record_of_row,
)
from memvault.compare_and_set import check_expected, check_expected_deletes
from memvault.history import entries_of_delete, entries_of_erase, entries_of_upsert
from memvault.lexical import indexed_text
from memvault.model import Change, HistoryEntry, Record, ns_key, record_id

if TYPE_CHECKING:
    import psycopg

__all__ = ["BULK_KEYS", "LOCK_TIMEOUT", "Raced", "delete", "lock_keys", "upsert", "wait_for"]

LOCK_TIMEOUT = 60.0
"""Seconds a write waits for another writer of the same keys before
:class:`~memvault.errors.StoreBusyError` (Postgres's ``lock_timeout``, set per write)."""

BULK_KEYS = 1_000
"""Most keys a write takes advisory locks on. Each lock holds a slot of the server's shared
lock table until the transaction ends (64 per connection by default,
``max_locks_per_transaction``): a ``put_many`` of 30,000 keys ran out of it ("out of shared
memory"). A larger write takes none: the rows it replaces are locked by its ``SELECT ... FOR
UPDATE`` (row locks are kept in the rows), and the keys it found absent are inserted only
where they still are (:class:`Raced` otherwise). Writers of other keys never wait for it; a
writer of one of its keys waits for its transaction to end (the row's lock, or the unique
index for a key it inserts)."""


class Raced(Exception):
    """Another writer inserted a key this write had found absent; roll back and run it again.

    Only when a write without advisory locks (:data:`BULK_KEYS`) and another write of the same
    key meet; the caller runs the transaction again, which then finds the key and locks it.
    """


def lock_keys(schema: str, ids: Sequence[str]) -> list[int]:
    """Advisory lock keys of record ids (signed 64-bit), sorted: one order for every writer.

    Args:
        schema: The store's schema (two stores' keys do not meet).
        ids: Record ids.
    """
    keys = {
        int.from_bytes(
            hashlib.blake2b(f"{schema}\x1f{i}".encode(), digest_size=8).digest(),
            "big",
            signed=True,
        )
        for i in ids
    }
    return sorted(keys)


def wait_for(cur: psycopg.Cursor[Any], lock_timeout: float) -> None:
    """Bound this transaction's lock waits by ``lock_timeout`` seconds."""
    cur.execute("SELECT set_config('lock_timeout', %s, TRUE)", (f"{int(lock_timeout * 1000)}ms",))


def _lock(cur: psycopg.Cursor[Any], s: str, ids: Sequence[str]) -> None:
    """Take the advisory locks of ``ids`` (:func:`lock_keys`) until the transaction ends."""
    cur.execute(
        "SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k",
        (lock_keys(s, ids),),
    )


_INSERT = (
    "INSERT INTO {s}.items AS i (id, ns, value, created, updated, expires, "
    "valid_from, valid_to, embedding, words, length, origin, session) VALUES "
    "(%s, %s, %s::json, %s, %s, %s, %s, %s, %s::vector, %s::tsvector, %s, %s, %s)"
)
_REPLACE = (
    "ON CONFLICT (id) DO UPDATE SET ns = EXCLUDED.ns, value = EXCLUDED.value, "
    "created = EXCLUDED.created, updated = EXCLUDED.updated, "
    "expires = EXCLUDED.expires, valid_from = EXCLUDED.valid_from, "
    "valid_to = EXCLUDED.valid_to, embedding = EXCLUDED.embedding, "
    "words = EXCLUDED.words, length = EXCLUDED.length, origin = EXCLUDED.origin, "
    "session = EXCLUDED.session"
)


def upsert(
    cur: psycopg.Cursor[Any],
    s: str,
    records: Sequence[Record],
    vectors: np.ndarray,
    *,
    now: float,
    change: Change,
) -> list[Record]:
    """Insert or replace records and write their history, in the caller's transaction.

    Each key is locked before its previous version is read (up to :data:`BULK_KEYS` keys;
    above, the versions read are locked); a version live at ``now`` lends its ``created_at``,
    and ``change.expected`` is checked against the versions read.

    Args:
        cur: A cursor in the writing transaction (the embedding dimension checked).
        s: The store's schema.
        records: Distinct ids.
        vectors: Their unit embeddings, shape ``(len(records), dim)``.
        now: Unix seconds.
        change: The write's source and kind, imported history and compare-and-set.

    Returns:
        The records as stored, in the same order.

    Raises:
        ConflictError: Where a version read is not the one ``change.expected`` names; the
            caller's transaction must then roll back (nothing is written yet).
        Raced: Where another writer inserted a key found absent; the caller's transaction
            must then roll back, and may run again.
    """
    carried = sorted({record_id(e.namespace, e.key) for e in change.imported_history})
    ids = [r.id for r in records]
    if len(ids) + len(carried) <= BULK_KEYS:
        _lock(cur, s, [*ids, *carried])
    found: dict[str, Record] = {}
    if ids:
        cur.execute(
            f"SELECT {RECORD_COLUMNS} FROM {s}.items i WHERE i.id = ANY(%s) FOR UPDATE",
            (ids,),
        )
        found = {row[0]: record_of_row(row) for row in cur.fetchall()}
    previous = [found.get(i) for i in ids]
    check_expected(records, previous, change, now=now)
    stored = [
        replace(r, created_at=old.created_at) if old is not None and old.live(now) else r
        for r, old in zip(records, previous)
    ]
    rows = [
        (
            r.id,
            ns_key(r.namespace),
            json_text(r.value),
            r.created_at,
            r.updated_at,
            r.expires_at,
            r.valid_from,
            r.valid_to,
            vector,
            *tsvector_of(indexed_text(r.value)),
            r.provenance.origin,
            r.provenance.session,
        )
        for r, vector in zip(stored, vectors)
    ]
    fresh = [row for row in rows if row[0] not in found]
    if fresh:
        cur.executemany(f"{_INSERT.format(s=s)} ON CONFLICT (id) DO NOTHING", fresh)
        if cur.rowcount != len(fresh):
            raise Raced(f"another writer inserted {len(fresh) - cur.rowcount} of the keys")
    replacing = [row for row in rows if row[0] in found]
    if replacing:
        cur.executemany(f"{_INSERT.format(s=s)} {_REPLACE}", replacing)
    kept: list[HistoryEntry] = []
    if carried:
        cur.execute(
            f"SELECT {HISTORY_COLUMNS} FROM {s}.history WHERE id = ANY(%s) ORDER BY id, at, seq",
            (carried,),
        )
        kept = [entry_of_row(row) for row in cur.fetchall()]
    _append_history(cur, s, entries_of_upsert(records, previous, now=now, change=change, kept=kept))
    return stored


def delete(
    cur: psycopg.Cursor[Any],
    s: str,
    ids: Sequence[str],
    *,
    now: float,
    source: str,
    expected: Sequence[tuple[str, float]] = (),
    erase: bool = False,
) -> None:
    """Delete records by id and record it, in the caller's transaction; absent ids are ignored.

    Each key is locked before its version is deleted; the versions the ``DELETE`` returns
    are checked against ``expected`` under those locks, before the history is written.

    With ``erase``, the same transaction sets ``before`` and ``after`` of every history
    entry of those ids to ``NULL`` and records ``"erase"`` (at ``now``) for each id that had
    a record or a history, instead of ``"delete"``/``"expire"``. The record's row held the
    store's only other copy of the text (its value and its words, ``words``), and it is
    deleted.

    Args:
        cur: A cursor in the writing transaction.
        s: The store's schema.
        ids: Distinct record ids, at least one.
        now: Unix seconds.
        source: Who deletes (:attr:`memvault.model.HistoryEntry.source`).
        expected: ``(record id, updated_at)`` pairs, ids among ``ids``: those records are
            deleted only in the version live at ``now`` with that ``updated_at``.
        erase: Remove the values from the history too (above).

    Raises:
        ConflictError: Where a record named in ``expected`` is absent, expired or of another
            ``updated_at``; the caller's transaction must then roll back (it undoes the
            ``DELETE``).
    """
    if len(ids) <= BULK_KEYS:  # above, the DELETE locks the rows it deletes
        _lock(cur, s, ids)
    cur.execute(
        f"DELETE FROM {s}.items i WHERE i.id = ANY(%s) RETURNING {RECORD_COLUMNS}",
        (list(ids),),
    )
    found = {row[0]: record_of_row(row) for row in cur.fetchall()}
    previous = [found.get(i) for i in ids]
    check_expected_deletes(ids, previous, expected, now=now)
    if not erase:
        _append_history(cur, s, entries_of_delete(previous, now=now, source=source))
        return
    cur.execute(
        f"WITH scrubbed AS (UPDATE {s}.history SET before = NULL, after = NULL "
        "WHERE id = ANY(%s) RETURNING id) SELECT DISTINCT id FROM scrubbed",
        (list(ids),),
    )
    kept = {row[0] for row in cur.fetchall()}
    erased = [i for i in ids if i in found or i in kept]
    _append_history(cur, s, entries_of_erase(erased, now=now, source=source))


def _append_history(cur: psycopg.Cursor[Any], s: str, entries: Sequence[HistoryEntry]) -> None:
    """Write history entries (none: nothing)."""
    if not entries:
        return
    cur.executemany(
        f"INSERT INTO {s}.history (id, ns, at, event, source, before, after) "
        "VALUES (%s, %s, %s, %s, %s, %s::json, %s::json)",
        [history_row(e) for e in entries],
    )
