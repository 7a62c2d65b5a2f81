"""The history of a memory: every change to one ``(namespace, key)``, oldest first.

Each change a write makes is one :class:`HistoryEntry`: when (Unix seconds), what
(:data:`HistoryEvent`), the value before and after, and who made it (a *source*: ``"api"``,
``"tool"``, ``"extractor"``, ``"turn"``, ``"import"``, ``"cleanup"``, ``"restore"``, or any
short identifier of yours, see :func:`validate_source`). A backend writes a write's entries in
the same step as its records (see :class:`~memvault.backends.base.Backend`); this module holds
what every backend shares: the entry, how a write is described (:class:`Change`), and which
entries a write makes (:func:`entries_of_upsert`, :func:`entries_of_delete`).

The events, per key, follow one life cycle: ``add`` (nothing live was there), then any number
of ``update`` or ``merge`` (a live version was replaced), then ``delete`` (removed while live)
or ``expire`` (removed, or replaced, after its TTL ran out; ``at`` is then when it expired),
then perhaps ``add`` again.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from memvault.errors import InvalidArgumentError, shown
from memvault.namespace import Namespace

if TYPE_CHECKING:
    from memvault.backends.base import Record

__all__ = [
    "HISTORY_EVENTS",
    "SOURCE_PATTERN",
    "Change",
    "HistoryEntry",
    "HistoryEvent",
    "entries_of_delete",
    "entries_of_upsert",
    "new_entries",
    "validate_source",
]

HistoryEvent = Literal["add", "update", "merge", "delete", "expire"]
"""What a change did: see the module docstring for the life cycle."""
HISTORY_EVENTS: tuple[HistoryEvent, ...] = get_args(HistoryEvent)

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


@dataclass(frozen=True)
class HistoryEntry:
    """One change to one memory, as :meth:`~memvault.MemoryStore.history` returns it.

    Attributes:
        namespace: The memory's namespace, e.g. ``("users", "alice")``.
        key: The memory's key.
        event: ``"add"`` (nothing live was there), ``"update"`` (a live version was replaced),
            ``"merge"`` (an update that merged a duplicate into it), ``"delete"`` (removed
            while live) or ``"expire"`` (removed, or replaced, after its TTL ran out).
        at: When, in Unix seconds (UTC) by the store's clock; for ``"expire"``, when the
            memory expired (its ``expires_at``) if it had.
        before: The value before the change; ``None`` for ``"add"``.
        after: The value after the change; ``None`` for ``"delete"`` and ``"expire"``.
        source: Who made the change: ``"api"`` (a direct call), ``"tool"``, ``"extractor"``,
            ``"turn"``, ``"import"``, ``"cleanup"``, ``"restore"`` (re-created when a lost
            record file was rebuilt), or a caller's own identifier.
    """

    namespace: Namespace
    key: str
    event: HistoryEvent
    at: float
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    source: str

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object (namespace as a list), as an export file holds it."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "event": self.event,
            "at": self.at,
            "before": self.before,
            "after": self.after,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: Any) -> HistoryEntry:
        """Read and check an entry written by :meth:`to_json`.

        Args:
            data: A JSON object with the fields of :class:`HistoryEntry` (extra fields are
                ignored).

        Returns:
            The entry.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError:
                If a field is missing or wrong (the message names it), or ``before`` and
                ``after`` do not fit the event (``add`` has no ``before``; ``delete`` and
                ``expire`` no ``after``; the others both).
        """
        from memvault.items import validate_time, validate_value
        from memvault.namespace import validate_key, validate_namespace

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
        wants_before, wants_after = event != "add", event not in ("delete", "expire")
        if (before is not None) != wants_before or (after is not None) != wants_after:
            raise InvalidArgumentError(
                f"a {event!r} entry has {'a' if wants_before else 'no'} before and "
                f"{'an' if wants_after else 'no'} after value"
            )
        return cls(
            namespace=validate_namespace(data["namespace"]),
            key=validate_key(data["key"]),
            event=event,
            at=validate_time(data["at"], "at"),
            before=None if before is None else validate_value(before, where="before"),
            after=None if after is None else validate_value(after, where="after"),
            source=validate_source(data["source"]),
        )


@dataclass(frozen=True)
class Change:
    """How a write enters the history: given to ``Backend.upsert`` with its records.

    Attributes:
        source: Who writes (see :attr:`HistoryEntry.source`), checked by
            :func:`validate_source`.
        merge: Record ``"merge"`` instead of ``"update"`` where a live version is replaced
            (``"add"`` where none is).
        carried: Entries to write as they are (an import carries them from an export). A
            carried entry equal to one already kept (and not repeated more often in
            ``carried``) is skipped, so importing an export into its own store again adds
            nothing; a record whose key's history then ends with its value gets no entry of
            its own.
    """

    source: str = "api"
    merge: bool = False
    carried: tuple[HistoryEntry, ...] = field(default=())


def entries_of_upsert(
    records: Sequence[Record],
    previous: Sequence[Record | None],
    *,
    now: float,
    change: Change,
    kept: Sequence[HistoryEntry] = (),
) -> list[HistoryEntry]:
    """The entries an upsert writes: the carried ones not kept yet, then its own.

    Per record, its own entries are ``"expire"`` first if the version it replaces had expired
    at ``now``; then ``"add"`` if no version live at ``now`` was replaced, else ``"update"``
    (``"merge"`` with ``change.merge``). A record whose key's history, once the carried
    entries are in, ends with its value (an add, update or merge to it) gets none.

    Args:
        records: The records written.
        previous: The versions they replace (``None`` where none), read in the same step.
        now: Unix seconds of the write.
        change: Its source and kind, and the carried entries.
        kept: The entries already kept for the keys of ``change.carried``, oldest first,
            read in the same step.

    Returns:
        The entries to write, in order.
    """
    fresh = new_entries(change.carried, kept)
    last: dict[tuple[Namespace, str], HistoryEntry] = {}
    for entry in sorted([*kept, *fresh], key=lambda e: e.at):  # stable: as written
        last[(entry.namespace, entry.key)] = entry
    made = list(fresh)
    for record, old in zip(records, previous):
        carried = last.get((record.namespace, record.key))
        if carried is not None and carried.after == record.value:
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
    carried: Sequence[HistoryEntry], kept: Iterable[HistoryEntry]
) -> list[HistoryEntry]:
    """The carried entries not kept yet.

    An entry kept ``n`` times skips its first ``n`` occurrences in ``carried``.

    Args:
        carried: Entries to write (see :attr:`Change.carried`).
        kept: The entries already kept for their keys.
    """
    seen = Counter(_identity(entry) for entry in kept)
    fresh = []
    for entry in carried:
        identity = _identity(entry)
        if seen[identity] > 0:
            seen[identity] -= 1
        else:
            fresh.append(entry)
    return fresh


def _identity(entry: HistoryEntry) -> str:
    return json.dumps(entry.to_json(), sort_keys=True, ensure_ascii=False)
