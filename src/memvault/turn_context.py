"""The context of turns an agent saves one at a time: what its session said around them.

An ingested conversation is read whole, and :func:`memvault.conversations.with_context` gives
each turn its ``context``: the session's date, then the turns from
:data:`~memvault.conversations.CONTEXT_BEFORE` before it to
:data:`~memvault.conversations.CONTEXT_AFTER` after it (itself included),
as ``speaker: text`` lines; the store embeds and indexes it with the text
(:func:`memvault.lexical.indexed_text`). An agent hands its memory one turn at a time
(:meth:`memvault.MemoryScope.save_turns`), so :class:`SessionTails` keeps, per namespace and
session, the last turns it was handed. A new turn's messages get their context from the same
function over those turns and the new ones, dated when the turn was said
(:func:`~memvault.conversations.format_session_date`), so a saved statement carries what an
ingested turn carries. A message saved before the messages that follow it were said (the last
of its turn) has its context completed when they arrive (:attr:`Window.completions`).

The turns are kept in this process, for the :data:`KEPT_SESSIONS` sessions saved to most
recently: a session that goes on in another process, or after a restart, starts again without
the turns before.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from memvault.conversations import (
    CONTEXT_AFTER,
    CONTEXT_BEFORE,
    SKIPPED_ROLES,
    Turn,
    format_session_date,
    with_context,
)
from memvault.forgetting import unquoted
from memvault.model import Namespace

KEPT_SESSIONS = 1000
"""How many sessions :class:`SessionTails` keeps the last turns of (the most recently saved)."""
KEPT_FORGOTTEN = 100
"""How many forgotten texts :class:`SessionTails` keeps out of a namespace's later contexts."""
KEPT_TURNS = CONTEXT_BEFORE + CONTEXT_AFTER
"""Turns kept per session: those whose context may still lack following turns, and the turns
before them that their context holds."""

Session = tuple[Namespace, str | None]
"""A session's place: the namespace its memories are saved in, and its session id."""


@dataclass(frozen=True)
class Said:
    """A turn of a session as it was saved.

    Attributes:
        turn: The message as a :class:`~memvault.conversations.Turn` (``speaker`` is the
            message's ``name``, else its role; ``turn_id`` its number in the session as seen
            here), its ``context`` as stored with the memory ``key``.
        key: The memory that stores the message, or ``None`` (nothing stored from it).
    """

    turn: Turn
    key: str | None = None


@dataclass(frozen=True)
class Completion:
    """A stored memory whose context grew now that the messages after it were said.

    Attributes:
        key: The memory's key.
        stored: The context it was saved with (complete it only if it still holds this).
        context: The context with the messages that followed it.
    """

    key: str
    stored: str
    context: str


@dataclass(frozen=True)
class Window:
    """One new turn of a session, with what the session said before it.

    Attributes:
        session: The session's namespace and id.
        earlier: The session's kept turns before this one (contexts completed), oldest first.
        messages: The turn's messages that are said aloud (system, developer, tool and
            function messages are left out), as ``{"role", "content"[, "name"]}`` dicts.
        turns: Those messages as turns, one each, with their contexts.
        completions: The earlier turns' memories whose contexts these messages complete.
    """

    session: Session
    earlier: tuple[Said, ...]
    messages: tuple[Mapping[str, str], ...]
    turns: tuple[Turn, ...]
    completions: tuple[Completion, ...]


_BY_STORE: weakref.WeakKeyDictionary[object, weakref.WeakSet[SessionTails]] = (
    weakref.WeakKeyDictionary()
)
"""The :class:`SessionTails` of each store's agent memories (:meth:`SessionTails.for_store`),
gone with them."""
_STORES_LOCK = threading.Lock()


class SessionTails:
    """The last turns of each session saved in this process (see the module docstring).

    Thread-safe; each call holds one lock for a few list operations.

    Args:
        kept_sessions: Most sessions kept; the one saved to least recently is forgotten first.
    """

    def __init__(self, kept_sessions: int = KEPT_SESSIONS) -> None:
        self.kept_sessions = kept_sessions
        self._tails: OrderedDict[Session, tuple[Said, ...]] = OrderedDict()
        self._forgotten: OrderedDict[Namespace, tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def for_store(cls, store: object) -> SessionTails:
        """New tails for an agent memory over ``store``, known to :meth:`of_store`.

        Args:
            store: A :class:`~memvault.MemoryStore`.

        Returns:
            Tails of their own (each agent memory keeps its sessions' turns apart).
        """
        tails = cls()
        with _STORES_LOCK:
            _BY_STORE.setdefault(store, weakref.WeakSet()).add(tails)
        return tails

    @classmethod
    def of_store(cls, store: object) -> list[SessionTails]:
        """The tails of every agent memory over ``store`` in this process, still alive.

        Forgetting unquotes them all (:meth:`unquote`), so that the forget tool reaches the
        turns a middleware keeps.

        Args:
            store: A :class:`~memvault.MemoryStore`.
        """
        with _STORES_LOCK:
            return list(_BY_STORE.get(store, ()))

    def window(
        self, session: Session, messages: Sequence[Mapping[str, str]], timestamp: float
    ) -> Window:
        """Contexts for a new turn of ``session``; nothing is kept until :meth:`record`.

        Args:
            session: The namespace the turn's memories go to, and the session id (``None``:
                the namespace's runs without one are one conversation).
            messages: The turn, ``{"role", "content"}`` dicts with an optional ``"name"``
                (the speaker), oldest first.
            timestamp: When the turn was said, Unix seconds up to
                :data:`~memvault.conversations.LAST_DATED_SECOND`: each message's context
                starts with it, written by :func:`~memvault.conversations.format_session_date`.

        Returns:
            The :class:`Window`.

        Raises:
            InvalidArgumentError: If ``timestamp`` cannot be written as a date.
        """
        date = format_session_date(timestamp)
        with self._lock:
            earlier = self._tails.get(session, ())
            forgotten = self._forgotten.get(session[0], ())
        spoken = tuple(m for m in messages if m["role"] not in SKIPPED_ROLES)
        number = int(earlier[-1].turn.turn_id) if earlier else 0
        new = [
            Turn(
                key=f"{session[1] or ''}:{number + offset}",
                text=unquoted(message["content"], forgotten) if forgotten else message["content"],
                speaker=message.get("name") or message["role"],
                turn_id=str(number + offset),
                session_date=date,
                timestamp=timestamp,
            )
            for offset, message in enumerate(spoken, 1)
        ]
        contexts = with_context([said.turn for said in earlier] + new)
        completions = []
        grown = list(earlier)
        for index in range(max(0, len(earlier) - CONTEXT_AFTER), len(earlier)):
            said, now = earlier[index], contexts[index]
            stored, context = said.turn.context or "", now.context or ""
            if said.key is not None and context != stored:
                completions.append(Completion(said.key, stored, context))
                grown[index] = Said(now, said.key)
        return Window(
            session,
            tuple(grown),
            spoken,
            tuple(contexts[len(earlier) :]),
            tuple(completions),
        )

    def unquote(self, namespace: Namespace, forgotten: Sequence[str]) -> None:
        """Take forgotten texts out of the turns kept for the sessions of ``namespace``.

        Each kept turn's text and context lose the sentences that state a forgotten text
        (:func:`memvault.forgetting.unquoted`, the rule the store's memories follow), so the
        next turn's context does not quote them, and an earlier memory's context completed
        by the next turn is its stored context, unquoted, with the turns after it. The texts
        are kept (the last :data:`KEPT_FORGOTTEN` of a namespace, for the
        :data:`KEPT_SESSIONS` namespaces forgotten in most recently) and taken out of the
        messages of the turns saved afterwards too, where they stand in the contexts only:
        the turn that asked to forget ("Please forget that I am allergic to peanuts.") is
        saved after the forgetting, and quotes it.

        Args:
            namespace: Where the memories were forgotten.
            forgotten: Their texts.
        """
        with self._lock:
            kept = (*self._forgotten.pop(namespace, ()), *forgotten)
            self._forgotten[namespace] = kept[-KEPT_FORGOTTEN:]
            while len(self._forgotten) > self.kept_sessions:
                self._forgotten.popitem(last=False)
            for session, tail in self._tails.items():
                if session[0] != namespace:
                    continue
                self._tails[session] = tuple(
                    Said(
                        replace(
                            said.turn,
                            text=unquoted(said.turn.text, forgotten),
                            context=unquoted(said.turn.context or "", forgotten) or None,
                        ),
                        said.key,
                    )
                    for said in tail
                )

    def record(self, window: Window, keys: Sequence[str | None] = ()) -> None:
        """Keep the window's turn as said: the session's last turns now end with it.

        Args:
            window: What :meth:`window` returned for this turn.
            keys: Per message of ``window.turns``, the key of the memory that stores it, or
                ``None``; missing entries are ``None`` (e.g. ``()`` when facts were stored).
        """
        keys = list(keys) + [None] * (len(window.turns) - len(keys))
        said = [Said(turn, key) for turn, key in zip(window.turns, keys)]
        tail = (*window.earlier, *said)[-KEPT_TURNS:]
        with self._lock:
            self._tails[window.session] = tail
            self._tails.move_to_end(window.session)
            while len(self._tails) > self.kept_sessions:
                self._tails.popitem(last=False)
