"""Reviewing what the poisoning firewall holds: list the held memories, release one.

:mod:`memvault.firewall` is the rule (what reads as an instruction to the model, and whether a
stored value is held); this module is what a person reviewing them does through the store's
public API: :func:`held_memories` (``memvault list --quarantined``, the inspector's Held page)
and :func:`release` (``memvault release``, the inspector's release,
:meth:`MemoryScope.release <memvault.MemoryScope.release>`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from memvault.arguments import MAX_COUNT
from memvault.errors import InvalidArgumentError, ItemNotFoundError
from memvault.firewall import QUARANTINED, RELEASED, held, held_many, released_mark
from memvault.history import validate_source

if TYPE_CHECKING:
    from memvault.items import MemoryItem
    from memvault.model import Namespace
    from memvault.store import MemoryStore

SCAN_PAGE: Final = 1000
"""How many memories :func:`held_memories` reads from the store at a time."""


def held_memories(
    store: MemoryStore,
    prefix: Namespace,
    *,
    limit: int,
    offset: int = 0,
    as_of: float | None = None,
    include_closed: bool = False,
) -> tuple[list[MemoryItem], bool]:
    """The memories under ``prefix`` that :func:`held` holds, for review.

    Read through the store's public ``search`` (no query: most recently updated first),
    :data:`SCAN_PAGE` at a time (each page screened at once, :func:`held_many`), until
    ``offset + limit`` held memories and one more are found or the store has no more (at most
    :data:`memvault.arguments.MAX_COUNT` memories read).
    ``memvault list --quarantined`` and the inspector's held memories page list them.

    Args:
        store: The :class:`~memvault.MemoryStore`.
        prefix: A namespace, e.g. ``("users",)``; ``()`` for the whole store.
        limit: At most this many memories.
        offset: Held memories skipped first.
        as_of: List what held at this time (Unix seconds), as ``MemoryStore.search`` does.
        include_closed: Also memories that no longer hold (superseded or ended).

    Returns:
        The held memories (at most ``limit``) and whether more follow.
    """
    wanted = offset + limit + 1
    found: list[MemoryItem] = []
    start = 0
    while len(found) < wanted and start <= MAX_COUNT:
        page = store.search(
            prefix, limit=SCAN_PAGE, offset=start, as_of=as_of, include_closed=include_closed
        )
        reasons = held_many([item.value for item in page])
        found += [item for item, reason in zip(page, reasons) if reason is not None]
        if len(page) < SCAN_PAGE:
            break
        start += SCAN_PAGE
    return found[offset : offset + limit], len(found) > offset + limit


def release(store: MemoryStore, namespace: Namespace, key: str, *, source: str = "reviewer") -> str:
    """Let a held memory be recalled again, after a person reviewed it.

    The memory is written again without ``"quarantined"`` and with ``"released"`` (a digest of
    its text, so the release holds for this text only: a memory changed since is screened
    again, and one the agent layer writes again is marked again); its history gets an
    ``"update"`` entry whose source is ``source`` (``"reviewer"``). Written only over what was
    read (compare-and-set), keeping its expiry, validity and provenance (a released
    memory is still its writer's: the trust policy still applies to it).

    Args:
        store: The :class:`~memvault.MemoryStore`.
        namespace: The memory's namespace, e.g. ``("users", "alice")``.
        key: Its key.
        source: Who released it, recorded in the history (a lower-case identifier).

    Returns:
        The reason it was held.

    Raises:
        ItemNotFoundError: If no memory is stored at ``key`` in ``namespace``.
        InvalidArgumentError: If the memory is not held (nothing to release), or ``source``
            is not a lower-case identifier.
        ConflictError: If the memory was changed meanwhile (read it again and review it).
    """
    validate_source(source)
    item = store.get(namespace, key)
    if item is None:
        raise ItemNotFoundError(f"key: no memory {key!r} in namespace {namespace!r}")
    reason = held(item.value)
    if reason is None:
        raise InvalidArgumentError(
            f"key: memory {key!r} is not held (memvault list --quarantined lists those that are)"
        )
    value = {name: field for name, field in item.value.items() if name != QUARANTINED}
    value[RELEASED] = released_mark(item.text)
    ttl = None if item.expires_at is None else max(item.expires_at - store.clock(), 1e-3)
    store.put(
        namespace,
        key,
        value,
        ttl=ttl,
        source=source,
        if_updated_at=item.updated_at,
        provenance=item.provenance,
    )
    return reason
