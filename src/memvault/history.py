"""The history of a memory: every change to one ``(namespace, key)``, oldest first.

Each change a write makes is one :class:`~memvault.model.HistoryEntry`: when (Unix seconds),
what (:data:`~memvault.model.HistoryEvent`), the value before and after, and who made it (a
*source*: ``"api"``, ``"tool"``, ``"extractor"``, ``"turn"``, ``"import"``, ``"cleanup"``,
``"restore"``, or any short identifier of yours, see :func:`validate_source`). A backend writes
a write's entries in the same step as its records (see :class:`~memvault.backends.base.Backend`);
this module holds the rules every backend shares: which entries a write makes
(:func:`entries_of_upsert`, :func:`entries_of_delete`, :func:`entries_of_erase`, given its
:class:`~memvault.model.Change`), and how an exported entry is read back (:func:`read_entry`).

The events, per key, follow one life cycle: ``add`` (nothing live was there), then any number
of ``update`` or ``merge`` (a live version was replaced by another value), then ``delete``
(removed while live) or ``expire`` (removed, or replaced, after its TTL ran out; ``at`` is then
when it expired), then perhaps ``add`` again. The history records values: a write that
replaces a live version with the same value, open or closed as it was (it moves
``updated_at``, ``valid_from`` or the expiry only, or changes nothing) records no entry;
closing it (``valid_to`` set, :meth:`MemoryStore.supersede <memvault.MemoryStore.supersede>`)
records an ``"update"``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memvault.errors import InvalidArgumentError, shown
from memvault.items import validate_time, validate_value
from memvault.model import HISTORY_EVENTS, Change, HistoryEntry, HistoryEvent, Namespace, Record
from memvault.namespace import validate_key, validate_namespace

__all__ = [
    "SOURCE_PATTERN",
    "entries_of_delete",
    "entries_of_erase",
    "entries_of_upsert",
    "new_entries",
    "read_entry",
    "validate_source",
]

SOURCE_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""What a source must be: a lower-case identifier of 1 to 32 characters."""


def validate_source(source: Any, field_name: str = "source") -> str:
    """Check a source: a lower-case identifier of 1-32 characters (``[a-z][a-z0-9_]{0,31}``).

    Args:
        source: E.g. ``"api"``, ``"tool"``, ``"extractor"``, ``"import"``.
        field_name: Its name in the message.

    Returns:
        The source unchanged.

    Raises:
        InvalidArgumentError: If it is not such a string (the message names the field).
    """
    if not isinstance(source, str) or not SOURCE_PATTERN.fullmatch(source):
        raise InvalidArgumentError(
            f"{field_name} must be a lower-case identifier of 1 to 32 characters "
            f"([a-z][a-z0-9_]*, e.g. 'api', 'tool', 'import'), got {shown(source)}"
        )
    return source


def read_entry(data: Any) -> HistoryEntry:
    """Read and check an entry written by :meth:`HistoryEntry.to_json` (an export's line).

    Args:
        data: A JSON object with the fields of :class:`HistoryEntry` (extra fields are
            ignored).

    Returns:
        The entry.

    Raises:
        InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError:
            If a field is missing or wrong (the message names it), or ``before`` and
            ``after`` do not fit the event (``add`` has no ``before``; ``delete`` and
            ``expire`` no ``after``; ``erase`` neither; the others both; any entry of a key
            erased since may have neither).
    """
    if not isinstance(data, Mapping):
        raise InvalidArgumentError(f"a history entry must be a JSON object, got {shown(data)}")
    missing = [
        name
        for name in ("namespace", "key", "event", "at", "before", "after", "source")
        if name not in data
    ]
    if missing:
        raise InvalidArgumentError(f"the history entry lacks {', '.join(missing)}")
    event = data["event"]
    if event not in HISTORY_EVENTS:
        raise InvalidArgumentError(
            f"event must be one of {', '.join(HISTORY_EVENTS)}, got {shown(event)}"
        )
    before, after = data["before"], data["after"]
    wants_before = event not in ("add", "erase")
    wants_after = event not in ("delete", "expire", "erase")
    erased = before is None and after is None  # an entry of a key erased since: no values
    if not erased and ((before is not None) != wants_before or (after is not None) != wants_after):
        raise InvalidArgumentError(
            f"an {event!r} entry holds {'a' if wants_before else 'no'} before value and "
            f"{'an' if wants_after else 'no'} after value (both none once its key was erased)"
        )
    # An entry holds values as they were stored, perhaps before MAX_TEXT_CHARS was a rule.
    as_stored = {"max_text_chars": None}
    return HistoryEntry(
        namespace=validate_namespace(data["namespace"]),
        key=validate_key(data["key"]),
        event=event,
        at=validate_time(data["at"], "at"),
        before=None if before is None else validate_value(before, where="before", **as_stored),
        after=None if after is None else validate_value(after, where="after", **as_stored),
        source=validate_source(data["source"]),
    )


def entries_of_upsert(
    records: Sequence[Record],
    previous: Sequence[Record | None],
    *,
    now: float,
    change: Change,
    kept: Sequence[HistoryEntry] = (),
) -> list[HistoryEntry]:
    """The entries an upsert writes: the imported ones not kept yet, then its own.

    Per record, its own entries are ``"expire"`` first if the version it replaces had expired
    at ``now``; then ``"add"`` if no version live at ``now`` was replaced, else ``"update"``
    (``"merge"`` with ``change.merge``). A record that replaces a live version of the same
    value and ``valid_to`` gets none (a close, which sets ``valid_to`` only, gets an
    ``"update"``), nor does one whose key's history, once the imported entries are in, ends
    with its value (an add, update or merge to it).

    Args:
        records: The records written.
        previous: The versions they replace (``None`` where none), read in the same step.
        now: Unix seconds of the write.
        change: Its source and kind, and the imported entries.
        kept: The entries already kept for the keys of ``change.imported_history``, oldest first,
            read in the same step.

    Returns:
        The entries to write, in order.
    """
    fresh = new_entries(change.imported_history, kept)
    last: dict[tuple[Namespace, str], HistoryEntry] = {}
    for entry in sorted([*kept, *fresh], key=lambda e: e.at):  # stable: as written
        last[(entry.namespace, entry.key)] = entry
    made = list(fresh)
    for record, old in zip(records, previous):
        latest = last.get((record.namespace, record.key))
        if latest is not None and latest.after == record.value:
            continue
        if old is not None and old.live(now) and _same_statement(old, record):
            continue
        if old is not None and not old.live(now):
            made.append(_gone(old, now=now, source=change.source))
            old = None
        event: HistoryEvent = "add" if old is None else "merge" if change.merge else "update"
        made.append(
            HistoryEntry(
                namespace=record.namespace,
                key=record.key,
                event=event,
                at=now,
                before=None if old is None else old.value,
                after=record.value,
                source=change.source,
            )
        )
    return made


def _same_statement(old: Record, new: Record) -> bool:
    """Whether ``new`` says what ``old`` says, as open or closed: the same value and ``valid_to``.

    A put of the value stored moves its ``valid_from`` to when it is said again: no entry.
    """
    return (old.value, old.valid_to) == (new.value, new.valid_to)


def entries_of_delete(
    previous: Iterable[Record | None], *, now: float, source: str
) -> list[HistoryEntry]:
    """The entries a delete makes, one per record that was there.

    ``"delete"`` per record live at ``now``, ``"expire"`` per expired one (at its
    ``expires_at``), nothing where there was none.

    Args:
        previous: The versions deleted, read in the same step (``None`` where absent).
        now: Unix seconds of the delete.
        source: Who deletes.
    """
    return [_gone(old, now=now, source=source) for old in previous if old is not None]


def entries_of_erase(ids: Iterable[str], *, now: float, source: str) -> list[HistoryEntry]:
    """The entries an erase makes: ``"erase"`` at ``now`` per id, with no values.

    An erase replaces the ``"delete"``/``"expire"`` a delete records; the backend gives it the
    ids that held a record or a history (an id with neither gets none), and in the same step
    sets ``before`` and ``after`` of every earlier entry of those ids to ``None``.

    Args:
        ids: Record ids (:func:`memvault.model.record_id`).
        now: Unix seconds of the erase.
        source: Who erases.
    """
    made = []
    for item_id in ids:
        *namespace, key = json.loads(item_id)
        made.append(HistoryEntry(tuple(namespace), key, "erase", now, None, None, source))
    return made


def _gone(old: Record, *, now: float, source: str) -> HistoryEntry:
    expired = not old.live(now)
    return HistoryEntry(
        namespace=old.namespace,
        key=old.key,
        event="expire" if expired else "delete",
        at=old.expires_at if expired and old.expires_at is not None else now,
        before=old.value,
        after=None,
        source=source,
    )


def new_entries(
    imported: Sequence[HistoryEntry], kept: Iterable[HistoryEntry]
) -> list[HistoryEntry]:
    """The imported entries not kept yet.

    An entry kept ``n`` times skips its first ``n`` occurrences in ``imported``.

    Args:
        imported: Entries to write (see :attr:`Change.imported_history`).
        kept: The entries already kept for their keys.
    """
    seen = Counter(_identity(entry) for entry in kept)
    fresh = []
    for entry in imported:
        identity = _identity(entry)
        if seen[identity] > 0:
            seen[identity] -= 1
        else:
            fresh.append(entry)
    return fresh


def _identity(entry: HistoryEntry) -> str:
    return json.dumps(entry.to_json(), sort_keys=True, ensure_ascii=False)
