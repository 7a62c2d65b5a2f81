"""What forgetting a memory takes out of the memories beside it: its words in their contexts.

A turn stored from a conversation carries a ``context`` (:func:`memvault.conversations.
with_context`): the session's date and the neighbouring turns as ``speaker: text`` lines. So
the words of one turn are stored again in the contexts of its neighbours, where they are
embedded and indexed with them (:func:`memvault.lexical.indexed_text`): deleting the turn alone
would leave a search for those words finding a neighbour, and a prompt quoting it.

:func:`unquoted` is the rule, on one text: every sentence of a context line that states a
forgotten text (:func:`memvault.statements.states`, the rule that forgetting by description
follows) is taken out, and a line left without words goes. :func:`unquote_neighbours`
applies it to the memories of a namespace, in the store, each written only over the version
read (a compare-and-set, retried on a conflict); the agent layer also applies it to the turns
it keeps in memory for the next turn's context
(:meth:`memvault.turn_context.SessionTails.unquote`).

What forgetting keeps: the history of every memory, the forgotten one's included, as
``memvault history`` documents (the versions before the change hold the words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memvault.arguments import NOT_GIVEN
from memvault.compare_and_set import retrying
from memvault.items import MemoryItem
from memvault.model import Namespace, SearchMode
from memvault.statements import sentences, states
from memvault.store import MemoryStore
from memvault.truncation import TRUNCATION_MARKER

__all__ = ["NEIGHBOUR_POOL", "unquote_neighbours", "unquoted"]

_CUT_MARK = re.compile(
    re.escape(TRUNCATION_MARKER.removeprefix("… ")).replace(r"\{count:,\}", r"[\d,]+")
)
"""What is left of a cut text's line once its words are forgotten: the marker alone."""

NEIGHBOUR_POOL = 50
"""How many memories of the namespace, most like a forgotten text, are read for contexts that
quote it (a turn is quoted by the few turns around it: :data:`~memvault.conversations.
CONTEXT_BEFORE` and :data:`~memvault.conversations.CONTEXT_AFTER` of its session)."""


def unquoted(text: str, forgotten: Sequence[str]) -> str:
    """``text`` without the sentences that state a forgotten text, line by line.

    A line ``speaker: words`` keeps its speaker while words remain; a line left without words
    (the speaker alone, or only the marker of a cut text: :data:`~memvault.truncation.
    TRUNCATION_MARKER`) is dropped. Lines that state nothing forgotten are kept as
    they are, so a text that quotes nothing forgotten comes back unchanged.

    Args:
        text: A context (lines), or a turn's text.
        forgotten: The texts forgotten; each of their sentences is looked for on its own.

    Returns:
        The text without those sentences.
    """
    wanted = [s for text_forgotten in forgotten for s in sentences(text_forgotten)]
    lines = []
    for line in text.split("\n"):
        speaker, colon, said = line.partition(": ")
        if not colon:
            speaker, said = "", line
        kept = [s for s in sentences(said) if not any(states(w, s) for w in wanted)]
        if len(kept) == len(sentences(said)):
            lines.append(line)
        elif kept and not _CUT_MARK.fullmatch(" ".join(kept)):
            lines.append(f"{speaker}{colon}{' '.join(kept)}")
    return "\n".join(lines)


def unquote_neighbours(
    store: MemoryStore,
    namespace: Namespace,
    forgotten: Sequence[str],
    *,
    source: str,
    ttl: Any = NOT_GIVEN,
) -> list[str]:
    """Take forgotten texts out of the contexts of the memories of one namespace.

    The :data:`NEIGHBOUR_POOL` memories of ``namespace`` (not below it) most like each
    forgotten text are read (by BM25 where the backend serves it, else by embedding), and
    each whose ``context`` quotes one (:func:`unquoted`) is written with the rest of its
    context, only over the version read (``if_updated_at``): a memory changed meanwhile is
    read again.

    Args:
        store: The store.
        namespace: Where the forgotten memories were, e.g. ``("users", "ada")``.
        forgotten: Their texts.
        source: Who forgets, recorded in the history of each memory changed.
        ttl: Seconds until the memories changed expire, counted from now, as
            :meth:`~memvault.MemoryStore.put_many` takes it (default: the store's).

    Returns:
        The keys of the memories whose contexts changed.
    """
    mode: SearchMode = "lexical" if "lexical" in store.backend.search_modes else "dense"

    def attempt() -> list[str]:
        found: dict[str, MemoryItem] = {}
        for text in forgotten:
            for item in store.search(namespace, query=text, mode=mode, limit=NEIGHBOUR_POOL):
                if item.namespace == namespace:
                    found.setdefault(item.key, item)
        updates, read = [], {}
        for item in found.values():
            context = item.value.get("context")
            if isinstance(context, str) and (rest := unquoted(context, forgotten)) != context:
                updates.append((item.key, {**item.value, "context": rest}))
                read[item.key] = item.updated_at
        if updates:
            store.put_many(namespace, updates, ttl=ttl, source=source, if_updated_at=read)
        return [key for key, _ in updates]

    return retrying(attempt)
