"""What the two SQL systems of record share: the row mapping, the namespace range, the pages.

The record file (SQLite, :mod:`memvault.backends.sqlite`) and :class:`~memvault.PostgresBackend`
keep the same columns for an item (``id``, ``ns``, ``value``, ``created``, ``updated``, ``expires``,
``valid_from``, ``valid_to``, and its provenance's ``origin`` and ``session``, ``NULL`` in a row
written before provenance existed: ``"api"``, no session) and for a history entry (``id``,
``ns``, ``at``, ``event``, ``source``, ``before``, ``after``), so one mapper reads both: a value
comes back as JSON text from SQLite and already decoded from Postgres's ``json`` column. A
namespace prefix is one range of the ``ns`` column (:func:`memvault.model.prefix_range`) in both;
the two dialects differ only in their parameter mark (``?`` in SQLite, ``%s`` in psycopg). Both
read the history under a prefix in pages of one statement (:func:`history_pages`), each page run
by the backend.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from memvault.model import (
    HistoryEntry,
    Namespace,
    Provenance,
    Record,
    Validity,
    ns_key,
    prefix_range,
    record_id,
)

__all__ = [
    "HISTORY_COLUMNS",
    "HISTORY_PAGE",
    "migrate",
    "RECORD_COLUMNS",
    "HistoryRow",
    "entry_of_row",
    "history_pages",
    "history_row",
    "json_text",
    "live_under",
    "record_of_row",
    "under",
]

RECORD_COLUMNS = (
    "i.id, i.value, i.created, i.updated, i.expires, i.valid_from, i.valid_to, i.origin, i.session"
)
"""The columns :func:`record_of_row` reads, on the items table aliased ``i``."""
HISTORY_COLUMNS = "id, event, at, before, after, source"
"""The columns :func:`entry_of_row` reads, on the history table."""

HISTORY_PAGE = 2_000
"""History entries :func:`history_pages` reads in one statement."""

HistoryRow = tuple[str, str, float, str, str, str | None, str | None]
"""A history table's row: ``(id, ns, at, event, source, before, after)``, values as JSON text."""


def _decoded(value: Any) -> Any:
    """A JSON column's content: SQLite hands back text, psycopg the decoded value."""
    return json.loads(value) if isinstance(value, str) else value


def record_of_row(row: Sequence[Any]) -> Record:
    """A record from a row of :data:`RECORD_COLUMNS` (its first nine columns)."""
    item_id, value, created, updated, expires, valid_from, valid_to, origin, session = row[:9]
    *namespace, key = json.loads(item_id)
    return Record(
        namespace=tuple(namespace),
        key=key,
        value=_decoded(value),
        created_at=created,
        updated_at=updated,
        expires_at=expires,
        valid_from=valid_from,
        valid_to=valid_to,
        # NULL in a row written before provenance existed: "api", no session
        provenance=Provenance(origin or "api", session),
    )


def entry_of_row(row: Sequence[Any]) -> HistoryEntry:
    """A history entry from a row of :data:`HISTORY_COLUMNS` (its first six columns)."""
    item_id, event, at, before, after, source = row[:6]
    *namespace, key = json.loads(item_id)
    return HistoryEntry(
        namespace=tuple(namespace),
        key=key,
        event=event,
        at=at,
        before=None if before is None else _decoded(before),
        after=None if after is None else _decoded(after),
        source=source,
    )


def json_text(value: dict[str, Any] | None) -> str | None:
    """A value as the JSON text a database column keeps (UTF-8 as is), or ``None``."""
    return None if value is None else json.dumps(value, ensure_ascii=False)


def history_row(entry: HistoryEntry) -> HistoryRow:
    """``entry`` as a row of a history table (the record file's and Postgres's)."""
    return (
        record_id(entry.namespace, entry.key),
        ns_key(entry.namespace),
        entry.at,
        entry.event,
        entry.source,
        json_text(entry.before),
        json_text(entry.after),
    )


def history_pages(
    prefix: Namespace,
    *,
    table: str,
    mark: str,
    fetch: Callable[[str, list[Any]], Sequence[Sequence[Any]]],
) -> Iterator[HistoryEntry]:
    """The history of every key under ``prefix``, by record id, each key oldest first.

    Read a page of :data:`HISTORY_PAGE` entries at a time, each page after the last entry
    of the one before (by ``(id, at, seq)``, the history index's order), so that a long
    history is never held whole and no entry is read twice.

    Args:
        prefix: A namespace prefix; ``()`` covers everything.
        table: The history table, e.g. ``"history"`` or ``"memvault.history"``.
        mark: The dialect's parameter mark (see :func:`under`).
        fetch: Runs one statement with its parameters and returns its rows.

    Yields:
        The entries, each page read when the one before is consumed.
    """
    scope, params = under(prefix, "ns", mark)
    sql = (
        f"SELECT {HISTORY_COLUMNS}, seq FROM {table} "
        f"WHERE (id, at, seq) > ({mark}, {mark}, {mark}) AND {scope} "
        f"ORDER BY id, at, seq LIMIT {mark}"
    )
    after: tuple[str, float, int] = ("", float("-inf"), -1)
    while True:
        rows = fetch(sql, [*after, *params, HISTORY_PAGE])
        yield from (entry_of_row(row) for row in rows)
        if len(rows) < HISTORY_PAGE:
            return
        after = (rows[-1][0], rows[-1][2], rows[-1][6])


def migrate(found: int, migrations: Mapping[int, Callable[[], None]], latest: int) -> int:
    """Bring a schema from version ``found`` to ``latest``, one version at a time.

    Both SQL systems of record keep their migrations as an ordered table: ``migrations[v]``
    turns a schema of version ``v - 1`` into version ``v`` (call this inside the transaction
    that opens the store, so that a failed step leaves the old schema).

    Args:
        found: The version the schema has, ``<= latest``.
        migrations: ``{version: step}`` for every version above the first.
        latest: The version this memvault writes.

    Returns:
        ``latest``.

    Raises:
        KeyError: If a step between ``found`` and ``latest`` is missing (a programming error).
    """
    for version in range(found + 1, latest + 1):
        migrations[version]()
    return latest


def under(prefix: Namespace, column: str, mark: str) -> tuple[str, list[Any]]:
    """An SQL condition that the namespace key in ``column`` lies under ``prefix``.

    Args:
        prefix: A namespace prefix; ``()`` covers everything.
        column: The ``ns`` column, e.g. ``"i.ns"``.
        mark: The dialect's parameter mark: ``"?"`` (SQLite) or ``"%s"`` (psycopg).

    Returns:
        The condition and its parameters (``"1 = 1"`` and none for ``()``).
    """
    bounds = prefix_range(prefix)
    if bounds is None:
        return "1 = 1", []
    return f"{column} >= {mark} AND {column} < {mark}", list(bounds)


def live_under(
    prefix: Namespace, now: float | None, mark: str, valid: Validity | None = None
) -> tuple[str, list[Any]]:
    """SQL conditions (items aliased ``i``) for liveness at ``now``, validity and a prefix.

    Args:
        prefix: A namespace prefix; ``()`` covers everything.
        now: Unix seconds; ``None`` keeps expired records too.
        mark: The dialect's parameter mark (see :func:`under`).
        valid: Which records by their validity (:meth:`memvault.model.Validity.admits`);
            ``None``: all.

    Returns:
        The conditions and their parameters.
    """
    scope, params = under(prefix, "i.ns", mark)
    if valid is not None:
        scope = f"(i.valid_to IS NULL OR i.valid_to > {mark}) AND {scope}"
        params = [valid.since, *params]
        if valid.until is not None:
            scope = f"i.valid_from <= {mark} AND {scope}"
            params = [valid.until, *params]
    if now is None:
        return scope, params
    return f"(i.expires IS NULL OR i.expires > {mark}) AND {scope}", [now, *params]
