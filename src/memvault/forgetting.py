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
``memvault history`` documents (the versions before the change hold the words). Erasing
(``erase=True``, for privacy: a health detail the user wants gone) keeps none of it: the
forgotten memories are deleted with :meth:`MemoryStore.delete(..., erase=True)
<memvault.MemoryStore.delete>` (their history entries keep event, time and source, not the
text), and each neighbour whose context quotes a forgotten text, now or in a version its
history holds, is erased too and written again, unquoted, as a new item (its earlier
entries keep no values, then come ``"erase"`` and ``"add"``; its ``created_at`` is the time
of the erase, its validity kept). An export or a history read afterwards holds the text
nowhere. What no erase reaches: exports, backups and copies made before, and what left the
store (a model's conversation, a framework's checkpoints); the agent layer keeps the texts
it unquotes from later turns in the process's memory only
(:meth:`~memvault.turn_context.SessionTails.unquote`).

Every rewrite keeps what a memory says about time: a memory holds from its ``valid_from``
until its ``valid_to`` whatever its context says, so :func:`rewrite_values` writes each with
its own validity (a closed memory stays closed). Forgetting reaches the memories that no
longer hold too (``include_closed``): a superseded memory still says what it said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memvault.arguments import NOT_GIVEN
from memvault.compare_and_set import retrying
from memvault.items import MemoryItem
from memvault.model import Namespace, Provenance, SearchMode
from memvault.statements import sentences, states
from memvault.store import MemoryStore
from memvault.truncation import TRUNCATION_MARKER

__all__ = ["NEIGHBOUR_POOL", "quotes", "rewrite_values", "unquote_neighbours", "unquoted"]

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


def quotes(value: Any, forgotten: Sequence[str]) -> bool:
    """Whether a memory's value has a ``context`` that quotes a forgotten text (:func:`unquoted`).

    Args:
        value: A stored value (a dict), or ``None`` (a history entry's missing side).
        forgotten: The texts forgotten.
    """
    context = value.get("context") if isinstance(value, dict) else None
    return isinstance(context, str) and unquoted(context, forgotten) != context


def rewrite_values(
    store: MemoryStore,
    namespace: Namespace,
    updates: Sequence[tuple[MemoryItem, dict[str, Any]]],
    *,
    source: str,
    ttl: Any = NOT_GIVEN,
) -> None:
    """Write new values of stored memories, each keeping when it holds and who wrote it.

    A put without ``valid_from`` says the value holds from now, and without ``valid_to``
    that it still holds; a memory whose context changed (forgotten words taken out, the
    next turn's messages added) holds as it did, and was still said by whoever said it. So
    the memories are written with their own ``valid_from``, ``valid_to`` and provenance: one
    :meth:`~memvault.MemoryStore.put_many` per validity and provenance (the memories of one
    turn share them), each only over the versions read (``if_updated_at``).

    Args:
        store: The store.
        namespace: The memories' namespace.
        updates: Each memory as read and its new value.
        source: Who writes, recorded in the history.
        ttl: As :meth:`~memvault.MemoryStore.put_many` takes it (default: the store's).

    Raises:
        ConflictError: If a memory changed since it was read (the memories of the
            validities written before stay written; read again and retry).
    """
    groups: dict[
        tuple[float, float | None, Provenance], list[tuple[MemoryItem, dict[str, Any]]]
    ] = {}
    for item, value in updates:
        held = (item.valid_from, item.valid_to, item.provenance)
        groups.setdefault(held, []).append((item, value))
    for (valid_from, valid_to, provenance), group in groups.items():
        store.put_many(
            namespace,
            [(item.key, value) for item, value in group],
            ttl=ttl,
            source=source,
            if_updated_at={item.key: item.updated_at for item, _ in group},
            valid_from=valid_from,
            valid_to=valid_to,
            provenance=provenance,
        )


def unquote_neighbours(
    store: MemoryStore,
    namespace: Namespace,
    forgotten: Sequence[str],
    *,
    source: str,
    ttl: Any = NOT_GIVEN,
    erase: bool = False,
) -> list[str]:
    """Take forgotten texts out of the contexts of the memories of one namespace.

    The :data:`NEIGHBOUR_POOL` memories of ``namespace`` (not below it) most like each
    forgotten text are read (by BM25 where the backend serves it, else by embedding; those
    that no longer hold too), and each whose ``context`` quotes one (:func:`unquoted`) is
    written with the rest of its context and its own validity (:func:`rewrite_values`), only
    over the version read (``if_updated_at``): a memory changed meanwhile is read again.

    With ``erase``, such a memory, and every key of the namespace whose history holds a
    version that quotes a forgotten text (the whole history of the namespace is read: a
    neighbour unquoted by an earlier forget no longer shares a word with it), is erased
    (:meth:`~memvault.MemoryStore.delete` with ``erase=True``, only over the version read)
    and, where it still holds an item, written again, unquoted, with its validity: no history
    entry keeps the words (see the module's docstring).

    Args:
        store: The store.
        namespace: Where the forgotten memories were, e.g. ``("users", "ada")``.
        forgotten: Their texts.
        source: Who forgets, recorded in the history of each memory changed.
        ttl: Seconds until the memories changed expire, counted from now, as
            :meth:`~memvault.MemoryStore.put_many` takes it (default: the store's).
        erase: Also erase the history of the memories that quoted a forgotten text.

    Returns:
        The keys of the memories whose contexts changed (with ``erase``: the keys erased).
    """
    mode: SearchMode = "lexical" if "lexical" in store.backend.search_modes else "dense"

    def attempt() -> list[str]:
        found: dict[str, MemoryItem] = {}
        for text in forgotten:
            pool = store.search(
                namespace, query=text, mode=mode, limit=NEIGHBOUR_POOL, include_closed=True
            )
            for item in pool:
                if item.namespace == namespace:
                    found.setdefault(item.key, item)
        updates = [
            (item, {**item.value, "context": unquoted(item.value["context"], forgotten)})
            for item in found.values()
            if quotes(item.value, forgotten)
        ]
        if not erase:
            rewrite_values(store, namespace, updates, source=source, ttl=ttl)
            return [item.key for item, _ in updates]
        rewritten = {item.key: value for item, value in updates}
        erased = dict.fromkeys([*rewritten, *_histories_quoting(store, namespace, forgotten)])
        for key in erased:
            current = found.get(key) or store.get(namespace, key)
            expected = NOT_GIVEN if current is None else current.updated_at
            store.delete(namespace, key, source=source, if_updated_at=expected, erase=True)
            if current is not None:  # written again, unquoted, holding as it did
                store.put(
                    namespace,
                    key,
                    rewritten.get(key, current.value),
                    ttl=ttl,
                    source=source,
                    if_updated_at=None,
                    valid_from=current.valid_from,
                    valid_to=current.valid_to,
                    provenance=current.provenance,
                )
        return list(erased)

    return retrying(attempt)


def gone_stating(
    store: MemoryStore, namespace: Namespace, memory: str, description: str
) -> list[MemoryItem]:
    """Memories of ``namespace`` (exactly) no longer stored whose history still holds them.

    What an erase of a memory forgotten earlier without ``erase`` (or expired, or cleaned up)
    must reach: a key named ``memory`` itself, or one whose history holds a text that states
    ``description`` (:func:`memvault.statements.states`). Every history entry of the namespace
    is read.

    Args:
        store: The store.
        namespace: Where to look.
        memory: What the request to forget named: a key, or a description.
        description: Its description (:func:`memvault.statements.description_of`).

    Returns:
        Per such key with no live item, the last version its history holds, as an item
        (times of that history entry).
    """
    found: dict[str, MemoryItem] = {}
    for entry in store.backend.history_under(namespace):
        if entry.namespace != namespace:
            continue
        for value in (entry.before, entry.after):
            if value is None or not isinstance(text := value.get("text"), str):
                continue
            if entry.key == memory or states(description, text):
                found[entry.key] = MemoryItem.model_construct(
                    namespace=namespace,
                    key=entry.key,
                    value=value,
                    created_at=entry.at,
                    updated_at=entry.at,
                    expires_at=None,
                    valid_from=entry.at,
                    valid_to=None,
                    score=None,
                    score_type=None,
                )
    return [item for key, item in found.items() if store.get(namespace, key) is None]


def _histories_quoting(
    store: MemoryStore, namespace: Namespace, forgotten: Sequence[str]
) -> list[str]:
    """The keys of ``namespace`` (exactly) with a history entry whose context quotes a text.

    Every history entry of the namespace is read (a neighbour unquoted by an earlier forget
    no longer shares a word with the text, so no search finds it): an erase reads all.
    """
    keys: dict[str, None] = {}
    for entry in store.backend.history_under(namespace):
        if entry.namespace == namespace and (
            quotes(entry.before, forgotten) or quotes(entry.after, forgotten)
        ):
            keys[entry.key] = None
    return list(keys)
