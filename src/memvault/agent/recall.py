"""The recall policy: what memories a query brings back, each saying one thing once.

One search of the namespace (and below) in the store's default mode, then: no two memories
with the same :func:`~memvault.statements.memory_key` (whatever their stored keys), none that
repeats a text already in the conversation, and memories holding a statement before any stored
question, request or pleasantry.
"""

from __future__ import annotations

from collections.abc import Iterable

from memvault.arguments import check_query, check_texts
from memvault.filters import Filter
from memvault.items import MemoryItem
from memvault.model import Namespace
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
) -> list[MemoryItem]:
    """Memories for a query, best first (see :meth:`memvault.MemoryScope.recall`).

    Args:
        store: The store.
        namespace: Where to search (and below), resolved.
        query: Usually the latest user message; ``None`` or blank recalls nothing.
        k: Most memories, checked (1 to 1000).
        filter: Metadata filter, or ``None``.
        exclude: Texts already in the conversation: their texts as said and the statements
            in them are not recalled (a question about a memory does not exclude it).

    Returns:
        Up to ``k`` items.

    Raises:
        InvalidArgumentError: If ``query`` is not a UTF-8 str or ``None``, or ``exclude`` is
            not a list of strings.
    """
    check_query(query)
    exclude = check_texts(exclude, "exclude", "the chat history's texts", utf8=False)
    if not (query and query.strip()):
        return []
    skip = set()
    for text in exclude:
        skip.add(memory_key(text))
        stated = memorable_text(text)  # a question about a memory does not exclude it
        if stated:
            skip.add(memory_key(stated))
    pool = store.search(namespace, query=query, filter=filter, limit=3 * k + len(skip))
    statements: list[MemoryItem] = []
    chatter: list[MemoryItem] = []
    for item in pool:
        key = memory_key(item.text)
        if key in skip:
            continue
        skip.add(key)
        (statements if memorable_text(item.text) else chatter).append(item)
    return (statements + chatter)[:k]
