"""Carrying out a reconciliation: each ADD, UPDATE, DELETE or NONE made a :class:`MemoryChange`.

Supersede, not overwrite. An UPDATE writes the new text as a memory of its own, holding from
when it was said, and closes the memory it replaces there
(:meth:`MemoryStore.supersede <memvault.MemoryStore.supersede>`: the old one gets
``valid_to`` and ``"superseded_by"``, the new one ``"supersedes"``); a DELETE ("I no longer
eat meat") closes the memory and adds nothing. Both stay in the store and its history: a
recall of now leaves a closed memory out, a recall ``as_of`` a time before finds it
(:class:`~memvault.model.Validity`).

The model decided against the memories as it saw them (:mod:`memvault.reconcile`); a memory
changed since by another writer is not touched: it is closed only in the version the model
saw (``if_updated_at``, atomically with the write), and where that version is gone the
decision is stale: a stale UPDATE's text stays a memory of its own (written first, it closes
nothing), a stale DELETE is dropped, each with a logged warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from memvault.agent.log import logger
from memvault.agent.scope import ScopedStore, memory_text
from memvault.agent.validation import check_text
from memvault.arguments import NOT_GIVEN
from memvault.errors import ConflictError, InvalidArgumentError, ItemNotFoundError
from memvault.items import MemoryItem
from memvault.reconcile import Decision
from memvault.statements import memory_key

ChangeEvent = Literal["add", "merge", "supersede", "close", "none"]


@dataclass(frozen=True)
class MemoryChange:
    """What storing one new fact did (:meth:`memvault.MemoryScope.reconcile`).

    Attributes:
        event: ``"add"`` (a new memory), ``"merge"`` (into a memory with the same key),
            ``"supersede"`` (a new memory replaced one, which was closed: an UPDATE),
            ``"close"`` (a memory stopped holding, kept closed: a DELETE) or ``"none"``
            (a memory already said it).
        fact: The new fact.
        item: The memory as stored now: added, merged, the new one of a supersede, the
            closed one of a close, or the one that already said it (none).
        before: The replaced or closed memory's text (supersede, close); ``None`` otherwise.
        replaced: The memory a supersede closed, as stored now (``valid_to`` set,
            ``"superseded_by"`` naming ``item``); ``None`` otherwise.
    """

    event: ChangeEvent
    fact: str
    item: MemoryItem
    before: str | None = None
    replaced: MemoryItem | None = None


def remembered(
    scoped: ScopedStore,
    fact: str,
    text: str,
    sources: list[str],
    source: str,
    at: float | None = None,
) -> MemoryChange:
    """Remember ``text`` as a ``"fact"`` memory (added, or merged into one saying it).

    Args:
        scoped: Where the memories are.
        fact: The new fact the change is about.
        text: What to store: the fact, or the model's text for it.
        sources: Keys of the memories it was derived from.
        source: Who writes, recorded in the history.
        at: When it was said, Unix seconds (its ``valid_from``); ``None``: now.

    Returns:
        The change: ``"add"`` or ``"merge"``.
    """
    event, item = scoped.remember(text, None, "fact", sources, source, valid_from=at)
    return MemoryChange(event, fact, item)


def apply_decisions(
    scoped: ScopedStore,
    decisions: Sequence[Decision],
    sources: list[str],
    source: str,
    at: float | None = None,
) -> list[MemoryChange]:
    """Carry out a reconciler's decisions, in order.

    Args:
        scoped: Where the memories are.
        decisions: From :mod:`memvault.reconcile`; an ADD or UPDATE carries a text, an
            UPDATE, DELETE or NONE a target.
        sources: Keys of the memories the facts were derived from (provenance).
        source: Who writes, recorded in the history (e.g. ``"extractor"``).
        at: When the facts were said, Unix seconds (a turn's timestamp): new memories hold
            from then and the memories they replace or end are closed then. ``None``: now.

    Returns:
        One change per decision carried out (a stale DELETE makes none; a stale UPDATE an
        ``"add"`` or ``"merge"``).
    """
    when = scoped.store.clock() if at is None else at
    changes: list[MemoryChange] = []
    for decision in decisions:
        target = decision.target
        if decision.event == "ADD":
            assert decision.text is not None
            changes.append(remembered(scoped, decision.fact, decision.text, sources, source, when))
        elif decision.event == "NONE":
            assert target is not None
            changes.append(MemoryChange("none", decision.fact, target))
        elif decision.event == "DELETE":  # closed only in the version the model saw
            assert target is not None
            closed = _closed(scoped, target, when, source)
            if closed is not None:
                changes.append(MemoryChange("close", decision.fact, closed, before=target.text))
        else:  # UPDATE: supersedes only the version the model saw
            assert target is not None and decision.text is not None
            changes.append(
                superseding(
                    scoped,
                    target,
                    decision.fact,
                    decision.text,
                    sources,
                    source,
                    when,
                    seen=target.updated_at,
                )
            )
    return changes


def superseding(
    scoped: ScopedStore,
    old: MemoryItem,
    fact: str,
    text: str,
    sources: Sequence[str],
    source: str,
    at: float,
    *,
    seen: float | None = None,
) -> MemoryChange:
    """Remember ``text`` as of ``at`` and close ``old`` by it (``supersedes`` linking both).

    The new memory is written first (added, or merged into a current memory that says it,
    as :meth:`ScopedStore.remember` does), then ``old`` is closed at ``at``
    (:meth:`MemoryStore.supersede <memvault.MemoryStore.supersede>`; just after ``old``'s
    ``valid_from`` where ``at`` is not after it, :func:`_closing`).

    Args:
        scoped: Where the memories are.
        old: The memory replaced, as read.
        fact: The new fact the change is about.
        text: The new memory's text.
        sources: Keys of the memories it was derived from.
        source: Who writes, recorded in the history.
        at: When the new text was said, Unix seconds.
        seen: The ``updated_at`` of ``old`` as a model saw it: ``old`` is closed only in
            that version, and where it changed, expired or was closed meanwhile the change
            is the new memory's ``"add"`` (or ``"merge"``), with a logged warning. ``None``:
            close whatever ``old`` is now.

    Returns:
        The ``"supersede"`` change; an ``"add"`` or ``"merge"`` where ``seen`` was stale,
        or where the new text merged into ``old`` itself (it says what ``old`` says).

    Raises:
        ItemNotFoundError: Without ``seen``, if ``old`` no longer holds (expired, deleted
            or closed meanwhile); the new memory stays written.
    """
    event, item = scoped.remember(text, None, "fact", sources, source, valid_from=at)
    if item.key == old.key:  # the model's new text says what the memory says: merged
        return MemoryChange(event, fact, item)
    store = scoped.store
    try:
        closed = store.supersede(
            old.namespace,
            old.key,
            by=item.key,
            at=_closing(old, at),
            source=source,
            if_updated_at=NOT_GIVEN if seen is None else seen,
        )
    except (ConflictError, ItemNotFoundError):
        if seen is None:
            raise
        _stale("UPDATE", old, "; its text is kept as a memory of its own")
        return MemoryChange(event, fact, item)
    linked = store.get(item.namespace, item.key) or item
    return MemoryChange("supersede", fact, linked, before=old.text, replaced=closed)


def _closed(scoped: ScopedStore, current: MemoryItem, at: float, source: str) -> MemoryItem | None:
    """Close ``current`` at ``at``, only if no one wrote, closed or deleted it since it was read.

    Args:
        scoped: Where the memories are.
        current: The memory as the model saw it.
        at: When the statement that ends it was said, Unix seconds.
        source: Who closes it, recorded in the history.

    Returns:
        The closed memory; ``None`` where the memory changed, expired or went meanwhile (a
        :class:`~memvault.errors.ConflictError` or
        :class:`~memvault.errors.ItemNotFoundError`): the decision is stale then.
    """
    try:
        return scoped.store.supersede(
            current.namespace,
            current.key,
            at=_closing(current, at),
            source=source,
            if_updated_at=current.updated_at,
        )
    except (ConflictError, ItemNotFoundError):
        _stale("DELETE", current, "")
        return None


SHORTEST_SPAN = 1e-3
"""Seconds a memory holds at least, once closed (a validity must not be empty)."""


def _closing(memory: MemoryItem, at: float) -> float:
    """When ``memory`` stops holding, for a statement said at ``at`` that ends it.

    ``at``, or :data:`SHORTEST_SPAN` after the memory's ``valid_from`` where ``at`` is not
    after it (closed as it is written, by a clock that has not moved, or by a turn replayed
    before an earlier one).
    """
    return at if at > memory.valid_from else memory.valid_from + SHORTEST_SPAN


def _stale(event: str, memory: MemoryItem, instead: str) -> None:
    """Warn that a decision about ``memory`` was not applied: it changed since read."""
    logger.warning(
        "reconciliation: %s of %r skipped, the memory changed since the model saw it%s",
        event,
        memory.text,
        instead,
    )


def supersede(
    scoped: ScopedStore, old_key: Any, text: Any, at: float | None, source: str
) -> MemoryChange:
    """Replace the current memory at ``old_key`` with ``text``, said at ``at`` (no model call).

    See :meth:`memvault.MemoryScope.supersede`.

    Raises:
        ItemNotFoundError: If ``old_key`` holds no memory of this namespace that still holds.
        InvalidArgumentError: If ``text`` is blank or says what the memory says already.
    """
    text = memory_text(check_text(text, "new_text"))
    key = old_key if isinstance(old_key, str) else ""
    old = scoped.store.get(scoped.namespace, key) if key.strip() else None
    if old is None or old.valid_to is not None:
        raise ItemNotFoundError(
            f"no current memory has the key {old_key!r} in {scoped.namespace!r}"
            + (" (it was closed already)" if old is not None else "")
            + "; give the key of a memory that still holds, as recall or list show it"
        )
    if memory_key(text) == memory_key(old.text) or scoped.key_and_memory_saying(text)[1] == old:
        raise InvalidArgumentError(
            f"text says what the memory {key!r} says already ({old.text!r}); remember it "
            "instead, or give the text that replaces it"
        )
    when = scoped.store.clock() if at is None else at
    return superseding(scoped, old, text, text, (), source, when)


def written(changes: Sequence[MemoryChange]) -> list[MemoryItem]:
    """The memories that changes wrote (added, merged, or new by a supersede), in order."""
    return [c.item for c in changes if c.event in ("add", "merge", "supersede")]
