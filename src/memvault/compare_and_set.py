"""Compare-and-set: a write that goes ahead only if what it replaces is what its caller read.

``MemoryStore.put(ns, key, value, if_updated_at=T)`` writes only while the stored item's
``updated_at`` is ``T`` (``T=None``: while the key holds no live item), else raises
:class:`~memvault.errors.ConflictError` and writes nothing. The store hands the condition to
the backend (:attr:`memvault.model.Change.expected`), which checks it with
:func:`check_expected` in the same step (transaction, key lock) that reads the versions it
replaces, so no other writer, thread or process, comes between the check and the write. A
read-modify-write (``remember`` merging into a memory, a reconciliation's update) reads,
merges, and writes with the ``updated_at`` it read, and on a conflict reads again
(:func:`retrying`): two processes saying things at once lose nothing and double nothing.

A delete has the condition too: ``MemoryStore.delete(ns, key, if_updated_at=T)`` deletes only
while the stored item's ``updated_at`` is ``T``, else raises :class:`ConflictError` (also
where no live item is there) and deletes nothing; the backend checks it with
:func:`check_expected_deletes` in the step that reads the versions it deletes.

This is optimistic concurrency as in HTTP's ``If-Match`` (RFC 9110, section 13.1.1), with the
item's ``updated_at`` as its version.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from memvault.errors import ConflictError
from memvault.model import Change, Record

__all__ = ["ATTEMPTS", "check_expected", "check_expected_deletes", "retrying"]

T = TypeVar("T")

ATTEMPTS = 20
"""How often :func:`retrying` runs a read-modify-write that keeps meeting conflicts."""


def check_expected(
    records: Sequence[Record], previous: Sequence[Record | None], change: Change, *, now: float
) -> None:
    """Raise unless each conditional record's stored version is the one its writer expects.

    Args:
        records: The records a write is about to store.
        previous: The versions they replace (``None`` where none), read in the write's step.
        change: The write; ``change.expected`` pairs record ids with the ``updated_at``
            (Unix seconds) expected, ``None`` for "no live version".
        now: Unix seconds of the write; an expired version counts as none.

    Raises:
        ConflictError: For the first record whose stored version differs, naming it and what
            is stored.
    """
    _check([r.id for r in records], previous, change.expected, now=now, done="written")


def check_expected_deletes(
    ids: Sequence[str],
    previous: Sequence[Record | None],
    expected: Sequence[tuple[str, float]],
    *,
    now: float,
) -> None:
    """Raise unless each conditional delete finds the live version its caller read.

    Args:
        ids: The record ids a delete is about to remove.
        previous: Their stored versions (``None`` where none), read in the delete's step.
        expected: ``(record id, updated_at)`` pairs (Unix seconds): the version each of
            those records must have for the delete to go ahead; ids not named delete as
            they are.
        now: Unix seconds of the delete; an expired version counts as none.

    Raises:
        ConflictError: For the first record that is absent, expired or of another
            ``updated_at``, naming it and what is stored.
    """
    _check(ids, previous, expected, now=now, done="deleted")


def _check(
    ids: Sequence[str],
    previous: Sequence[Record | None],
    expected: Sequence[tuple[str, float | None]],
    *,
    now: float,
    done: str,
) -> None:
    """Raise :class:`ConflictError` at the first id whose version is not the one expected.

    ``done`` says what the write would have done (``"written"``, ``"deleted"``).
    """
    if not expected:
        return
    wanted_of = dict(expected)
    for item_id, old in zip(ids, previous):
        if item_id not in wanted_of:
            continue
        wanted = wanted_of[item_id]
        found = old.updated_at if old is not None and old.live(now) else None
        if found == wanted:
            continue
        *namespace, key = json.loads(item_id)
        where = f"{'/'.join(namespace)} {key!r}"
        if found is None:
            problem = f"{where} holds no live item, but if_updated_at={wanted!r} was given"
        elif wanted is None:
            problem = f"{where} already holds an item (updated_at={found!r})"
        else:
            problem = f"{where} was written meanwhile (updated_at={found!r}, not {wanted!r})"
        raise ConflictError(
            f"{problem}: nothing was {done}; read the item again and retry with its updated_at",
            namespace=tuple(namespace),
            key=key,
            updated_at=found,
        )


def retrying(attempt: Callable[[], T], *, attempts: int = ATTEMPTS) -> T:
    """Run a read-modify-write until it meets no :class:`~memvault.errors.ConflictError`.

    Args:
        attempt: Reads what it changes, then writes with ``if_updated_at`` set to what it
            read; called again from the start after a conflict.
        attempts: Most calls, ``>= 1``.

    Returns:
        What the first attempt that wrote returns.

    Raises:
        ConflictError: If every attempt met a conflict (another writer changing the same
            item that often is a livelock, not contention).
    """
    for _ in range(attempts - 1):
        try:
            return attempt()
        except ConflictError:
            continue
    return attempt()
