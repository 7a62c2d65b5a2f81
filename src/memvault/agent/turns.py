"""Storing new facts and finished turns: plan, call the model, apply, written once.

:func:`reconciling` stores facts (merge the word-for-word repeats, ask the reconciler about
the rest against their candidates, apply its decisions); :func:`storing_turn` stores a turn
(its place in the session, then the extractor's facts, or the reconciler's one-call decisions,
or the user's statements). Both are :mod:`memvault.agent.pipeline` pipelines: the store work
is plain sync code here, each model call is yielded, and :func:`~memvault.agent.pipeline.run`
or :func:`~memvault.agent.pipeline.arun` makes it sync or awaits it. A model reply that cannot
be used (:class:`~memvault.errors.ExtractionError`) never loses a turn: a reconciliation adds
every fact, a turn stores the user's statements, each with a warning on the layer's logger.
"""

from __future__ import annotations

from typing import Any

from memvault.agent.changes import MemoryChange, apply_decisions, remembered, written
from memvault.agent.log import logger
from memvault.agent.pipeline import ModelCall, Pipeline
from memvault.agent.scope import ScopedStore
from memvault.agent.validation import check_text
from memvault.arguments import check_texts
from memvault.compare_and_set import retrying
from memvault.errors import ExtractionError, ReconciliationError
from memvault.extraction import Extractor
from memvault.forgetting import rewrite_values
from memvault.items import MemoryItem
from memvault.reconcile import Reconciler, add_all
from memvault.statements import memorable_text, memory_key
from memvault.turn_context import SessionTails, Window

Chat = list[dict[str, str]]
"""A checked turn (:func:`~memvault.agent.validation.checked_chat`)."""


def reconciling(
    scoped: ScopedStore,
    reconciler: Reconciler | None,
    facts: Any,
    sources: Any,
    source: str,
    at: float | None = None,
) -> Pipeline[list[MemoryChange]]:
    """Store new facts, deciding with the reconciler how each changes what is stored.

    See :meth:`memvault.MemoryScope.reconcile`: a repeat is merged without a call, the rest are
    decided in one call (none without a reconciler, or with nothing similar stored), and a
    reply that cannot be read adds every fact.

    Args:
        scoped: Where the memories are.
        reconciler: The memory's reconciler, or ``None`` (every fact remembered).
        facts: The new facts (a list of strings, checked here).
        sources: Keys of the memories they were derived from (checked here).
        source: Who writes, recorded in the history.
        at: When the facts were said, Unix seconds (a turn's timestamp); ``None``: now.

    Returns:
        A pipeline of at most one model call, returning one change per decision, in order.

    Raises:
        InvalidArgumentError: If ``facts`` or ``sources`` is not a list of strings, or a fact
            is blank (when the pipeline is run).
    """
    facts = [
        check_text(fact, f"facts[{index}]")
        for index, fact in enumerate(check_texts(facts, "facts", "['...']"))
    ]
    sources = check_texts(sources, "sources", "['mem-3f2a...']")
    changes: list[MemoryChange] = []
    fresh: list[str] = []
    for fact in dict.fromkeys(facts):
        if reconciler is None or scoped.key_and_memory_saying(fact)[1] is not None:
            changes.append(remembered(scoped, fact, fact, sources, source, at))
        else:
            fresh.append(fact)
    decisions = add_all(fresh)
    existing = [] if reconciler is None else scoped.candidates(fresh, reconciler.candidates)
    if reconciler is not None and fresh and existing:
        try:
            decisions = yield ModelCall(reconciler.decide, reconciler.adecide, (fresh, existing))
        except ReconciliationError as error:
            logger.warning(
                "reconciliation reply unreadable, adding every new fact and changing nothing "
                "stored: %s (reply: %r)",
                error,
                (error.raw or "")[:200],
            )
    return changes + apply_decisions(scoped, decisions, sources, source, at)


def storing_turn(
    scoped: ScopedStore,
    tails: SessionTails,
    extractor: Extractor | None,
    reconciler: Reconciler | None,
    chat: Chat,
    when: float,
    *,
    fall_back: bool = True,
) -> Pipeline[list[MemoryItem]]:
    """Store a checked turn said at ``when`` (see :meth:`memvault.MemoryScope.save_turns`).

    Args:
        scoped: Where the memories are.
        tails: The memory's last turns of each session.
        extractor: The memory's extractor, or ``None``.
        reconciler: The memory's reconciler, or ``None``.
        chat: The turn, checked.
        when: When it was said, Unix seconds.
        fall_back: ``False`` (the background worker, which falls back and counts the failure
            itself): an :class:`~memvault.errors.ExtractionError` propagates instead of
            storing the statements.

    Returns:
        A pipeline of at most two model calls, returning the memories written (added,
        merged or updated), in order.
    """
    window = enter_session(scoped, tails, chat, when)
    said = statements(chat)
    if extractor is not None:
        call = ModelCall(extractor.extract, extractor.aextract, (chat,))
    elif reconciler is not None and said:
        existing = scoped.candidates(said, reconciler.candidates)
        call = ModelCall(reconciler.decide_turn, reconciler.adecide_turn, (chat, existing))
    else:
        return store_statements(scoped, tails, window, when)
    try:
        reply = yield call
    except ExtractionError as error:
        if not fall_back:
            raise
        step = "reconciliation" if isinstance(error, ReconciliationError) else "fact extraction"
        logger.warning(
            "%s failed, storing the user's statements instead: %s (reply: %r)",
            step,
            error,
            (error.raw or "")[:200],
        )
        return store_statements(scoped, tails, window, when)
    keys = [memory_key(statement) for statement in said]
    if extractor is not None:  # the reply is the facts, for the reconciler to decide
        changes = yield from reconciling(scoped, reconciler, reply, keys, "extractor", when)
    else:  # the reply is the reconciler's decisions
        changes = apply_decisions(scoped, reply, keys, "extractor", when)
    tails.record(window)
    return written(changes)


def statements(chat: Chat) -> list[str]:
    """The statements of the user's messages (:func:`~memvault.statements.memorable_text`)."""
    return [
        said
        for m in chat
        if m["role"] == "user" and (said := memorable_text(m["content"])) is not None
    ]


def enter_session(scoped: ScopedStore, tails: SessionTails, chat: Chat, when: float) -> Window:
    """The turn's place in its session, with the earlier memories' contexts completed.

    The memories of the session's previous turn that waited for the messages after them
    get their completed contexts in one write (:func:`~memvault.forgetting.rewrite_values`:
    one per validity, each memory holding as it did), each only if it still holds the
    context it was saved with.

    Args:
        scoped: Where the memories are.
        tails: The memory's last turns of each session.
        chat: The turn, checked.
        when: When it was said, Unix seconds.

    Returns:
        The turn's window (:class:`~memvault.turn_context.Window`).
    """
    window = tails.window((scoped.namespace, scoped.session_id), chat, when)

    def attempt() -> None:
        updates = []
        for completion in window.completions:
            item = scoped.store.get(scoped.namespace, completion.key)
            if item is not None and item.value.get("context") == completion.stored:
                updates.append((item, {**item.value, "context": completion.context}))
        rewrite_values(scoped.store, scoped.namespace, updates, source="turn", ttl=scoped.ttl)

    retrying(attempt)
    return window


def store_statements(
    scoped: ScopedStore, tails: SessionTails, window: Window, when: float
) -> list[MemoryItem]:
    """Store the user's statements of a turn as ``kind="turn"`` memories with contexts.

    Args:
        scoped: Where the memories are.
        tails: The memory's last turns of each session; the turn is recorded there.
        window: The turn's window (:func:`enter_session`).
        when: When the turn was said, Unix seconds: each statement holds from then.

    Returns:
        The memories written, in order.
    """
    items: list[MemoryItem] = []
    keys: list[str | None] = []
    for message, turn in zip(window.messages, window.turns):
        said = memorable_text(message["content"]) if message["role"] == "user" else None
        if said is None:
            keys.append(None)
            continue
        item = scoped.remember(
            said, {"context": turn.context}, "turn", (), "turn", valid_from=when
        )[1]
        items.append(item)
        keys.append(item.key)
    tails.record(window, keys)
    return items
