"""The recall policy: what memories a query brings back, each saying one thing once.

One search of the namespace (and below) in the store's default mode, then: no two memories
with the same :func:`~memvault.statements.memory_key` (whatever their stored keys), none that
repeats a text already in the conversation, memories holding a statement before any stored
question, request or pleasantry, and never a closed memory above the memory that superseded
it (:func:`current_first`).

Held back: a memory that reads as an instruction to the model
(:func:`memvault.firewall.held`: marked ``"quarantined"`` when the agent layer wrote it, or
screened now when written otherwise) is never recalled, so no prompt, memory block or recall
tool result carries it, unless the caller opts in (``inject_quarantined=True``). It stays in
the store: :meth:`MemoryStore.search <memvault.MemoryStore.search>` finds it, ``memvault list
--quarantined`` lists it for review.

Trust: with ``origins`` (:meth:`MemoryScope.context <memvault.MemoryScope.context>` gives the
memory's ``trust``), a memory written by any other origin (:class:`~memvault.model.Provenance`;
by default, what the assistant said) is not recalled into a prompt either; it stays searchable.

What holds when: by default the search returns what holds now (a memory closed by a
supersede is left out); ``as_of`` asks what held at another time, and a query naming a past
period ("where did I live in April 2023?") brings back what held then beside what holds now
(:meth:`MemoryStore.search <memvault.MemoryStore.search>`). Where a closed memory and the one
that superseded it both come back, the current one ranks first and the block a model reads
dates both (:func:`~memvault.format_memories`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from memvault.arguments import check_query, check_texts
from memvault.filters import Filter
from memvault.firewall import held_many
from memvault.items import MemoryItem, validate_moment
from memvault.model import Namespace, Origin
from memvault.rendering import Memories
from memvault.statements import memorable_text, memory_key
from memvault.store import MemoryStore


def recall(
    store: MemoryStore,
    namespace: Namespace,
    query: str | None,
    *,
    k: int,
    filter: Filter | None,
    exclude: Iterable[str],
    as_of: Any = None,
    inject_quarantined: bool = False,
    origins: frozenset[Origin] | None = None,
) -> Memories:
    """Memories for a query, best first (see :meth:`memvault.MemoryScope.recall`).

    Args:
        store: The store.
        namespace: Where to search (and below), resolved.
        query: Usually the latest user message; ``None`` or blank recalls nothing.
        k: Most memories, checked (1 to 1000).
        filter: Metadata filter, or ``None``.
        exclude: Texts already in the conversation: their texts as said and the statements
            in them are not recalled (a question about a memory does not exclude it).
        as_of: Recall what held at this time (Unix seconds or a ``datetime``); ``None``:
            what holds now (and then, for a query naming a past period).
        inject_quarantined: Also recall held memories (:func:`memvault.firewall.held`);
            default ``False``: they are left out (so fewer than ``k`` may come back).
        origins: Recall only memories written by these origins (their provenance's);
            ``None``: of every origin.

    Returns:
        Up to ``k`` items, as :class:`~memvault.rendering.Memories` (a list).

    Raises:
        InvalidArgumentError: If ``query`` is not a UTF-8 str or ``None``, ``exclude`` is
            not a list of strings, or ``as_of`` is not a time.
    """
    check_query(query)
    as_of = validate_moment(as_of, "as_of", optional=True)
    exclude = check_texts(exclude, "exclude", "the chat history's texts", utf8=False)
    if not (query and query.strip()):
        return Memories()
    skip = set()
    for text in exclude:
        skip.add(memory_key(text))
        stated = memorable_text(text)  # a question about a memory does not exclude it
        if stated:
            skip.add(memory_key(stated))
    pool = store.search(namespace, query=query, filter=filter, limit=3 * k + len(skip), as_of=as_of)
    statements: list[MemoryItem] = []
    chatter: list[MemoryItem] = []
    reasons = [None] * len(pool) if inject_quarantined else held_many([i.value for i in pool])
    for item, reason in zip(pool, reasons):
        if reason is not None:
            continue
        if origins is not None and item.provenance.origin not in origins:
            continue
        key = memory_key(item.text)
        if key in skip:
            continue
        skip.add(key)
        (statements if memorable_text(item.text) else chatter).append(item)
    return Memories(current_first(statements + chatter)[:k])


def current_first(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """``items`` in their order, except that none comes before the memory that superseded it.

    A closed memory whose ``"superseded_by"`` names a memory of the same namespace that is
    in ``items`` too is moved to just after it (after the last of a chain: Lisbon, then
    Porto, then Braga comes back Braga, Porto, Lisbon wherever each ranked); the others keep
    their places.

    Args:
        items: Memories, best first.

    Returns:
        The same memories, reordered.
    """
    given = {(item.namespace, item.key) for item in items}
    waiting: dict[tuple[Namespace, str], list[MemoryItem]] = {}
    placed: set[tuple[Namespace, str]] = set()
    ordered: list[MemoryItem] = []

    def place(item: MemoryItem) -> None:
        ordered.append(item)
        placed.add((item.namespace, item.key))
        for later in waiting.pop((item.namespace, item.key), []):
            place(later)

    for item in items:
        successor = item.value.get("superseded_by")
        by = (item.namespace, successor) if isinstance(successor, str) else None
        if by is not None and by in given and by not in placed:
            waiting.setdefault(by, []).append(item)
        else:
            place(item)
    left = [item for item in items if (item.namespace, item.key) not in placed]
    return ordered + left  # a supersede cycle (made by hand) keeps its order
