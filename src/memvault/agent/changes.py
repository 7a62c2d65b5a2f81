"""Carrying out a reconciliation: each ADD, UPDATE, DELETE or NONE made a :class:`MemoryChange`.

The model decided against the memories as it saw them (:mod:`memvault.reconcile`); a memory
changed since by another writer is not touched: an UPDATE is written and a DELETE deleted with
compare-and-set over the version the model saw (``if_updated_at``, atomically with the write),
and where that version is gone the decision is stale: a stale UPDATE adds its text instead, a
stale DELETE is dropped, each with a logged warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memvault.agent.log import logger
from memvault.agent.scope import ScopedStore
from memvault.errors import ConflictError
from memvault.items import MemoryItem
from memvault.reconcile import Decision

ChangeEvent = Literal["add", "merge", "update", "delete", "none"]


@dataclass(frozen=True)
class MemoryChange:
    """What storing one new fact did (:meth:`memvault.MemoryScope.reconcile`).

    Attributes:
        event: ``"add"`` (a new memory), ``"merge"`` (into a memory with the same key),
            ``"update"`` (a memory's text replaced), ``"delete"`` (a memory removed) or
            ``"none"`` (a memory already said it).
        fact: The new fact.
        item: The memory as stored now (add, merge, update), as it was (delete), or the one
            that already said it (none).
        before: The memory's text before (update, delete); ``None`` otherwise.
    """

    event: ChangeEvent
    fact: str
    item: MemoryItem
    before: str | None = None


def remembered(
    scoped: ScopedStore, fact: str, text: str, sources: list[str], source: str
) -> MemoryChange:
    """Remember ``text`` as a ``"fact"`` memory (added, or merged into one saying it).

    Args:
        scoped: Where the memories are.
        fact: The new fact the change is about.
        text: What to store: the fact, or the model's text for it.
        sources: Keys of the memories it was derived from.
        source: Who writes, recorded in the history.

    Returns:
        The change: ``"add"`` or ``"merge"``.
    """
    event, item = scoped.remember(text, None, "fact", sources, source)
    return MemoryChange(event, fact, item)


def apply_decisions(
    scoped: ScopedStore, decisions: Sequence[Decision], sources: list[str], source: str
) -> list[MemoryChange]:
    """Carry out a reconciler's decisions, in order.

    Args:
        scoped: Where the memories are.
        decisions: From :mod:`memvault.reconcile`; an ADD or UPDATE carries a text, an
            UPDATE, DELETE or NONE a target.
        sources: Keys of the memories the facts were derived from (provenance).
        source: Who writes, recorded in the history (e.g. ``"extractor"``).

    Returns:
        One change per decision carried out (a stale DELETE makes none).
    """
    changes: list[MemoryChange] = []
    for decision in decisions:
        target = decision.target
        if decision.event == "ADD":
            assert decision.text is not None
            changes.append(remembered(scoped, decision.fact, decision.text, sources, source))
            continue
        if decision.event == "NONE":
            assert target is not None
            changes.append(MemoryChange("none", decision.fact, target))
            continue
        assert target is not None
        if decision.event == "DELETE":  # deleted only in the version the model saw
            if _deleted(scoped, target, source):
                changes.append(MemoryChange("delete", decision.fact, target, before=target.text))
                continue
        else:  # UPDATE: written only over the version the model saw (compare-and-set)
            updated = _updated(scoped, target, decision, sources, source)
            if updated is not None:
                changes.append(updated)
                continue
        # Changed since the model saw it: its decision is stale; keep the newer memory.
        logger.warning(
            "reconciliation: %s of %r skipped, the memory changed since the model saw it%s",
            decision.event,
            target.text,
            "; adding the new text instead" if decision.event == "UPDATE" else "",
        )
        if decision.event == "UPDATE":
            assert decision.text is not None
            changes.append(remembered(scoped, decision.fact, decision.text, sources, source))
    return changes


def _updated(
    scoped: ScopedStore, current: MemoryItem, decision: Decision, sources: list[str], source: str
) -> MemoryChange | None:
    """Write an UPDATE over ``current``, only if no one wrote it since it was read.

    Returns:
        The change, or ``None`` where the memory changed meanwhile (a
        :class:`~memvault.errors.ConflictError`): the decision is stale then.
    """
    assert decision.text is not None
    value = scoped.merged(current, decision.text, "fact", sources)
    value["mentions"] = int(current.value.get("mentions", 1))
    try:
        item = scoped.store.put(
            current.namespace,
            current.key,
            value,
            ttl=scoped.ttl,
            source=source,
            if_updated_at=current.updated_at,
        )
    except ConflictError:
        return None
    return MemoryChange("update", decision.fact, item, before=current.text)


def _deleted(scoped: ScopedStore, current: MemoryItem, source: str) -> bool:
    """Delete ``current``, only if no one wrote or deleted it since it was read.

    Args:
        scoped: Where the memories are.
        current: The memory as the model saw it.
        source: Who deletes, recorded in the history.

    Returns:
        Whether it was deleted; ``False`` where the memory changed, expired or went
        meanwhile (a :class:`~memvault.errors.ConflictError`): the decision is stale then.
    """
    try:
        scoped.store.delete(
            current.namespace, current.key, source=source, if_updated_at=current.updated_at
        )
    except ConflictError:
        return False
    return True


def written(changes: Sequence[MemoryChange]) -> list[MemoryItem]:
    """The memories that changes wrote (added, merged or updated), in order."""
    return [c.item for c in changes if c.event in ("add", "merge", "update")]
