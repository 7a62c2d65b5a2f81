"""The agent-memory layer: what both framework adapters do with a store, written once.

A :class:`MemoryStore` stores what it is given. An agent needs a memory: one that keeps what
the user *told* it and not what the user asked, that says a repeated thing once, that forgets
for good when asked, and that reaches only the memories of the user the run is for.
:class:`AgentMemory` holds that policy over a store and a namespace template;
:meth:`AgentMemory.scope` resolves the template with one run's ids (failing closed when an id
is missing) into a :class:`MemoryScope`, which every operation goes through:

- :meth:`MemoryScope.remember` writes one memory; a memory that says what a stored one says
  (the same :func:`~memvault.statements.memory_key`: content words in order, so case,
  punctuation, contractions and first or third person do not count) updates that item in place
  (``created_at`` kept, ``updated_at`` moved, ``mentions`` counted, ``sessions`` recorded), and
  with ``similarity_threshold`` set, so does a near-duplicate
  (:func:`~memvault.statements.near_duplicate`).
- :meth:`MemoryScope.save_turns` stores a finished turn: the statements of the user's messages
  as ``kind="turn"`` memories (questions, requests and pleasantries are not memories, see
  :mod:`memvault.statements`), each with a ``context`` as an ingested conversation's turns have
  (the turn's date and the messages around it, :mod:`memvault.turn_context`), or, with an
  extractor, the facts it draws, each recording the keys of the statements it came from
  (``sources``).
- :meth:`MemoryScope.recall` finds memories for a query: no two with the same normal form, none
  that repeats a text already in the conversation, and statements always before any stored
  question or pleasantry.
- :meth:`MemoryScope.forget` removes a memory by key or by description ("that I am learning
  Portuguese"), together with its sources and every memory in scope that states the same.
- :meth:`AgentMemory.render` is the one rendering of memories (:func:`format_memories`) for
  prompts and tool results, always under a header saying they are data, not instructions.

Every memory this layer writes has the value shape ``{"text": str, "kind": "fact" | "turn",
"mentions": int, "sessions": [str], "session_id": str, "sources": [key], "role": "user",
"context": str, ...}`` (``session_id``, ``sources``, ``role`` and ``context`` only where known)
under the key :func:`~memvault.statements.memory_key` of its text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from memvault.arguments import check_k
from memvault.background import BackgroundWorker, IngestionStats, check_timeout
from memvault.compare_and_set import retrying
from memvault.config import DEFAULT_NAMESPACE, DEFAULT_SIMILARITY_THRESHOLD, MemoryConfig
from memvault.context import DEFAULT_MEMORY_HEADER, format_memories
from memvault.conversations import format_session_date
from memvault.errors import (
    ConflictError,
    ExtractionError,
    InvalidArgumentError,
    InvalidValueError,
    ReconciliationError,
    shown,
)
from memvault.extraction import FactExtractor
from memvault.filters import Filter, normalize_filter
from memvault.items import MemoryItem, validate_ttl
from memvault.model import Namespace
from memvault.namespace import is_utf8, resolve_namespace, validate_namespace
from memvault.reconcile import Decision, Reconciler, add_all
from memvault.statements import (
    description_of,
    memorable_text,
    memory_key,
    near_duplicate,
    normalize_text,
    states,
)
from memvault.store import NOT_GIVEN, MemoryStore
from memvault.turn_context import SessionTails, Window
from memvault.twins import async_twin

logger = logging.getLogger(__name__)

Kind = Literal["fact", "turn"]
RESERVED_FIELDS = frozenset(
    {"text", "kind", "mentions", "sessions", "session_id", "sources", "role"}
)
"""Value fields the layer writes itself; ``metadata`` may not set them."""
MAX_SESSIONS = 20
"""How many session ids a memory keeps in ``sessions`` (the most recent)."""
CANDIDATES = 5
"""How many nearest memories a write compares with for near-duplicates."""
STATING_POOL = 50
"""How many memories a description is compared with when forgetting by description."""


def _check_text(text: Any, field: str) -> str:
    if not isinstance(text, str) or not is_utf8(text) or not normalize_text(text):
        raise InvalidArgumentError(
            f"{field} must be a UTF-8 string with words in it, got {shown(text)}"
        )
    return text.strip()


def _check_texts(texts: Any, field: str, example: str, *, utf8: bool = True) -> list[str]:
    """A list from an iterable of strings (not one string, which would be its letters).

    With ``utf8``, each must be UTF-8 too (no lone surrogate), as what is stored must be.
    """
    if isinstance(texts, (str, bytes, Mapping)) or not isinstance(texts, Iterable):
        raise InvalidArgumentError(
            f"{field} must be a list of strings such as {example}, got "
            f"{type(texts).__name__} {shown(texts)}"
        )
    texts = list(texts)
    for index, text in enumerate(texts):
        if not isinstance(text, str) or (utf8 and not is_utf8(text)):
            raise InvalidArgumentError(
                f"{field}[{index}] must be a {'UTF-8 ' if utf8 else ''}string, got "
                f"{type(text).__name__} {shown(text)}"
            )
    return texts


def _chat_of(messages: Any) -> list[dict[str, str]]:
    """The messages of a turn with text, as ``{"role", "content"}`` dicts, checked.

    A message's string ``"name"`` (its speaker, as OpenAI's messages name one) is kept too.

    Raises:
        InvalidArgumentError: If ``messages`` is not a sequence of mappings.
    """
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise InvalidArgumentError(
            'messages must be a list of {"role": ..., "content": ...} dicts, got '
            f"{type(messages).__name__}"
        )
    chat: list[dict[str, str]] = []
    for message in messages:
        if not isinstance(message, Mapping):
            raise InvalidArgumentError(
                'each message must be a {"role": ..., "content": ...} dict, got '
                f"{type(message).__name__}"
            )
        content = message.get("content")
        if isinstance(content, str) and is_utf8(content) and content.strip():
            kept = {"role": str(message.get("role")), "content": content}
            name = message.get("name")
            if isinstance(name, str) and is_utf8(name) and name.strip():
                kept["name"] = name.strip()
            chat.append(kept)
    return chat


def _turn_time(timestamp: Any, clock: Callable[[], float]) -> float:
    """When a turn was said: ``timestamp`` checked, else now by the store's ``clock``.

    Raises:
        InvalidArgumentError: If ``timestamp`` is not Unix seconds that can be written as a date
            (:func:`~memvault.conversations.format_session_date`).
    """
    if timestamp is None:
        return clock()
    format_session_date(timestamp, field="timestamp")
    return float(timestamp)


def _statements(chat: list[dict[str, str]]) -> list[str]:
    """The statements of the user's messages (:func:`~memvault.statements.memorable_text`)."""
    return [
        said
        for m in chat
        if m["role"] == "user" and (said := memorable_text(m["content"])) is not None
    ]


def _statement_keys(chat: list[dict[str, str]]) -> list[str]:
    """The keys of the user's statements in a turn: the ``sources`` of the facts drawn from it."""
    return [memory_key(statement) for statement in _statements(chat)]


def _written(changes: list[MemoryChange]) -> list[MemoryItem]:
    return [c.item for c in changes if c.event in ("add", "merge", "update")]


def _warn_unextracted(error: ExtractionError) -> None:
    step = "reconciliation" if isinstance(error, ReconciliationError) else "fact extraction"
    logger.warning(
        "%s failed, storing the user's statements instead: %s (reply: %r)",
        step,
        error,
        (error.raw or "")[:200],
    )


def _warn_unreadable(error: ReconciliationError) -> None:
    logger.warning(
        "reconciliation reply unreadable, adding every new fact and changing nothing stored: "
        "%s (reply: %r)",
        error,
        (error.raw or "")[:200],
    )


ChangeEvent = Literal["add", "merge", "update", "delete", "none"]


@dataclass(frozen=True)
class MemoryChange:
    """What storing one new fact did (:meth:`MemoryScope.reconcile`).

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


class AgentMemory:
    """Long-term memory for agents over a :class:`MemoryStore`: one policy, both frameworks.

    Args:
        store: The :class:`~memvault.MemoryStore`.
        namespace: Namespace template, e.g. ``("users", "{user_id}")``; filled per run by
            :meth:`scope` (see :func:`~memvault.resolve_namespace`).
        k: Most memories recalled per query, 1 to 1000.
        filter: Metadata filter applied to every recall (see :mod:`memvault.filters`).
        header: The line(s) before the fenced block of :meth:`render`.
        similarity_threshold: Cosine similarity (of the store's embedder, in ``[-1, 1]``) from
            which a new memory overwrites its nearest stored memory instead of adding one, if
            their words and numbers agree too (:func:`~memvault.statements.near_duplicate`);
            ``None`` (default, :data:`DEFAULT_SIMILARITY_THRESHOLD`) merges only memories with
            the same key, which was the precise choice for MiniLM.
        extractor: A :class:`~memvault.FactExtractor`; :meth:`MemoryScope.save_turns` then
            stores the facts it draws instead of the user's statements.
        reconciler: A :class:`~memvault.Reconciler`; new facts (the extractor's and the
            ``remember`` tool's) then go through one LLM call that decides ADD, UPDATE, DELETE
            or NONE against the most similar stored memories (:meth:`MemoryScope.reconcile`).
        ttl: Seconds until memories written here expire; ``None`` never; default the store's.
        name: This memory's name, e.g. ``"user"`` or ``"organisation"``, for agents that hold
            several (middleware names and tool-name prefixes use it).
        background: ``True``: :meth:`MemoryScope.save_turns` checks the turn and returns at
            once, and extraction and writes run on this memory's worker thread, in order
            (:mod:`memvault.background`: bounded, drained at exit; a failure is logged and
            counted, and the user's statements are stored instead). Wait for it with
            :meth:`flush`; counts in :attr:`ingestion`. ``False`` (default): in the caller.

    Raises:
        InvalidArgumentError: If ``store`` is not a MemoryStore, ``k``, ``ttl`` (see
            :func:`~memvault.items.validate_ttl`) or ``similarity_threshold`` is out of range,
            ``header`` is not a UTF-8 str, ``name`` is not an identifier, or ``background``
            is not a bool.
        InvalidNamespaceError: If ``namespace`` is not a tuple of strings.
        InvalidFilterError: If ``filter`` is not a valid filter.

    Example:
        >>> memory = AgentMemory(store, ("users", "{user_id}"))  # doctest: +SKIP
        >>> alice = memory.scope(user_id="alice")  # doctest: +SKIP
        >>> alice.remember("I am allergic to kiwi.")  # doctest: +SKIP
        >>> alice.context("Which fruit should I avoid?")  # doctest: +SKIP
    """

    def __init__(
        self,
        store: MemoryStore,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        *,
        k: int = 5,
        filter: Filter | None = None,
        header: str = DEFAULT_MEMORY_HEADER,
        similarity_threshold: float | None = DEFAULT_SIMILARITY_THRESHOLD,
        extractor: Any = None,
        reconciler: Any = None,
        ttl: Any = NOT_GIVEN,
        name: str = "memvault",
        background: bool = False,
    ) -> None:
        if not isinstance(store, MemoryStore):
            raise InvalidArgumentError(
                f"store must be a memvault MemoryStore, got {type(store).__name__}"
            )
        if similarity_threshold is not None and (
            isinstance(similarity_threshold, bool)
            or not isinstance(similarity_threshold, (int, float))
            or not -1.0 <= similarity_threshold <= 1.0
        ):
            raise InvalidArgumentError(
                "similarity_threshold must be a cosine similarity from -1 to 1, or None "
                f"(merge only memories with equal keys), got {similarity_threshold!r}"
            )
        if extractor is not None and not hasattr(extractor, "extract"):
            raise InvalidArgumentError(
                f"extractor must be a memvault FactExtractor, got {type(extractor).__name__}"
            )
        if reconciler is not None and not isinstance(reconciler, Reconciler):
            raise InvalidArgumentError(
                f"reconciler must be a memvault Reconciler, got {type(reconciler).__name__}"
            )
        if not isinstance(name, str) or not name.isidentifier():
            raise InvalidArgumentError(
                f"name must be an identifier such as 'user' or 'organisation', got {name!r}"
            )
        if not isinstance(header, str) or not is_utf8(header):
            raise InvalidArgumentError(
                f"header must be a UTF-8 str, got {type(header).__name__} {shown(header)}"
            )
        if not isinstance(background, bool):
            raise InvalidArgumentError(
                f"background must be True or False, got {type(background).__name__} "
                f"{shown(background)}"
            )
        if ttl is not NOT_GIVEN:
            validate_ttl(ttl)
        normalize_filter(filter)
        self.store = store
        self.namespace: Namespace = validate_namespace(namespace)
        self.k = check_k(k)
        self.filter = filter
        self.header = header
        self.similarity_threshold = similarity_threshold
        self.extractor = extractor
        self.reconciler: Reconciler | None = reconciler
        self.ttl = ttl
        self.name = name
        self.background = background
        self._worker = BackgroundWorker(name) if background else None
        self._tails = SessionTails()

    @classmethod
    def of(cls, memory_or_store: AgentMemory | MemoryStore, **options: Any) -> AgentMemory:
        """The memory an adapter part was given: an AgentMemory as it is, or one for a store.

        Every adapter class (middleware, tools, retriever, memory block) takes either, so this
        is the one rule for it.

        Args:
            memory_or_store: An :class:`AgentMemory`, used as it is, or a
                :class:`~memvault.MemoryStore`, wrapped as ``AgentMemory(store, **options)``.
            **options: :class:`AgentMemory` arguments (``namespace``, ``k``, ``filter``,
                ``header``, ``extractor``, ``reconciler``, ``ttl``, ``name``, ``background``);
                those equal to
                :data:`~memvault.arguments.NOT_GIVEN` are left out, so the defaults apply.

        Returns:
            The memory.

        Raises:
            InvalidArgumentError: If ``memory_or_store`` is neither, or it is an AgentMemory
                and options are given as well (they belong to the AgentMemory and would be
                ignored); or as :class:`AgentMemory` raises on a bad option.
            InvalidNamespaceError, InvalidFilterError: On a bad ``namespace`` or ``filter``.
        """
        given = {name: value for name, value in options.items() if value is not NOT_GIVEN}
        if isinstance(memory_or_store, AgentMemory):
            if given:
                names = ", ".join(sorted(given))
                raise InvalidArgumentError(
                    f"{names} cannot be given with an AgentMemory, which holds its own: set "
                    f"{names} on the AgentMemory, or pass a MemoryStore instead"
                )
            return memory_or_store
        if not isinstance(memory_or_store, MemoryStore):
            raise InvalidArgumentError(
                "expected a memvault AgentMemory or MemoryStore, got "
                f"{type(memory_or_store).__name__}"
            )
        return cls(memory_or_store, **given)

    @classmethod
    def from_config(
        cls, config: Mapping[str, Any] | Any, *, llm: Any = None, store: MemoryStore | None = None
    ) -> AgentMemory:
        """Build a memory from a :class:`~memvault.MemoryConfig` or its plain-dict form.

        Args:
            config: A :class:`~memvault.MemoryConfig`, or a dict (e.g. read from JSON or YAML)
                with its fields.
            llm: The model that fact extraction and reconciliation call when
                ``config["extraction"]`` or ``config["reconciliation"]`` is true (any kind
                :mod:`memvault.llm` takes).
            store: A store to use instead of opening ``config["path"]``.

        Returns:
            The memory.

        Raises:
            InvalidArgumentError: If a field is invalid (the message names it), or extraction
                or reconciliation is on without an ``llm``.
        """
        settings = MemoryConfig.parse(config)
        for field, wanted in (
            ("extraction", settings.extraction),
            ("reconciliation", settings.reconciliation),
        ):
            if wanted and llm is None:
                raise InvalidArgumentError(
                    f"config has {field}: true, so give the model: from_config(config, llm=...)"
                )
        return cls(
            settings.open_store() if store is None else store,
            settings.namespace,
            k=settings.k,
            header=settings.header,
            similarity_threshold=settings.similarity_threshold,
            extractor=FactExtractor(llm) if settings.extraction else None,
            reconciler=Reconciler(llm) if settings.reconciliation else None,
            ttl=settings.ttl,
            name=settings.name,
            background=settings.background,
        )

    def scope(
        self,
        ids: Mapping[str, Any] | None = None,
        /,
        *,
        session_id: str | None = None,
        **more_ids: Any,
    ) -> MemoryScope:
        """Resolve the namespace template for one run.

        Args:
            ids: The run's ids, e.g. ``{"user_id": "alice", "thread_id": "t1"}``.
            session_id: The conversation's id, recorded on memories written through the scope;
                default ``ids["session_id"]``, else ``ids["thread_id"]``.
            **more_ids: More ids, e.g. ``user_id="alice"``.

        Returns:
            A :class:`MemoryScope`.

        Raises:
            InvalidNamespaceError: If the template needs an id that is missing or empty, so a
                run without a user never falls back to a shared namespace.
            InvalidArgumentError: If ``ids`` is not a mapping, or the session id (taken as
                ``str(session_id)``) is not UTF-8.
        """
        if ids is not None and not isinstance(ids, Mapping):
            raise InvalidArgumentError(
                "ids must be a dict of the run's ids such as {'user_id': 'alice'}, got "
                f"{type(ids).__name__} {shown(ids)}"
            )
        values = {**(ids or {}), **more_ids}
        namespace = resolve_namespace(self.namespace, values)
        session = session_id or values.get("session_id") or values.get("thread_id")
        if session and not is_utf8(str(session)):
            raise InvalidArgumentError(
                f"session_id must be a UTF-8 string such as 'thread-1', got {shown(session)}"
            )
        return MemoryScope(self, namespace, str(session) if session else None)

    @property
    def ingestion(self) -> IngestionStats:
        """Counts of the background ingestion: turns ``pending``, ``done`` and ``failures``.

        All ``0`` without ``background=True``. A failure is a turn whose extraction or writes
        raised (its statements were stored instead), or whose fallback raised too.
        """
        return self._worker.stats() if self._worker is not None else IngestionStats()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every turn handed to the background worker before this call is stored.

        Returns at once without ``background=True``.

        Args:
            timeout: Most seconds to wait (>= 0); ``None`` (default) waits until done.

        Returns:
            ``True`` if those turns are all stored (or fell back to their statements),
            ``False`` if the timeout came first.

        Raises:
            InvalidArgumentError: If ``timeout`` is not ``None`` or seconds >= 0.
        """
        if self._worker is None:
            check_timeout(timeout)
            return True
        return self._worker.flush(timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async form of :meth:`flush`: the same arguments, result and errors.

        The event loop never blocks while it waits.
        """
        if self._worker is None:
            check_timeout(timeout)
            return True
        return await self._worker.aflush(timeout)

    def render(self, items: Sequence[MemoryItem], *, show_ids: bool = False) -> str:
        """Render memories as the fenced block models read as data, under :attr:`header`.

        Args:
            items: Memories, most relevant first.
            show_ids: Whether each line carries the memory's key (tool results do).

        Returns:
            The block (:func:`~memvault.format_memories`), or ``""`` for no items.
        """
        return format_memories(list(items), header=self.header, show_ids=show_ids)


class MemoryScope:
    """An :class:`AgentMemory` resolved for one run: one namespace, one session.

    Made by :meth:`AgentMemory.scope`. Every method has an async twin with an ``a`` prefix that
    runs in a worker thread.

    Attributes:
        memory: The :class:`AgentMemory`.
        namespace: The resolved namespace, e.g. ``("users", "alice")``.
        session_id: The conversation recorded on written memories, or ``None``.
    """

    def __init__(self, memory: AgentMemory, namespace: Namespace, session_id: str | None):
        self.memory = memory
        self.namespace = namespace
        self.session_id = session_id

    @property
    def store(self) -> MemoryStore:
        """The memory's store."""
        return self.memory.store

    # -- writes -----------------------------------------------------------------------------

    def remember(
        self,
        text: str,
        metadata: Mapping[str, Any] | None = None,
        *,
        kind: Kind = "fact",
        sources: Iterable[str] = (),
        source: str = "api",
    ) -> MemoryItem:
        """Store one memory, merging it into a stored duplicate (no LLM call).

        A stored memory with the same :func:`~memvault.statements.memory_key` is updated in
        place; else, with a ``similarity_threshold``, the nearest memory in this namespace is
        overwritten if :func:`~memvault.statements.near_duplicate` holds (the new text replaces
        the old, as the teff ``MemoryTool`` does). Either way ``created_at`` stays,
        ``updated_at`` moves, ``mentions`` grows by one, the session joins ``sessions``,
        ``sources`` are united, and ``kind`` becomes ``"fact"`` if either side was one; the
        history records a ``"merge"``. :meth:`reconcile` is the form that asks the reconciler.

        Args:
            text: The memory, e.g. ``"The user is allergic to kiwi."``.
            metadata: More value fields (JSON), e.g. ``{"topic": "health"}``; the layer's own
                fields (:data:`RESERVED_FIELDS`) cannot be set here.
            kind: ``"fact"`` (a durable fact) or ``"turn"`` (a statement as the user said it).
            sources: Keys of the memories this one was derived from (provenance).
            source: Who wrote it, recorded in the history: ``"api"`` (default), ``"tool"``,
                ``"extractor"``, ``"turn"``...

        Returns:
            The stored item.

        Raises:
            InvalidArgumentError: On blank text, a bad kind or source, metadata that is not a
                dict or sets reserved fields, or sources that are not a list of keys.
            InvalidValueError: If metadata is not JSON.
        """
        return self._remember(text, metadata, kind, sources, source)[1]

    def _remember(
        self, text: str, metadata: Any, kind: Kind, sources: Iterable[str], source: str
    ) -> tuple[ChangeEvent, MemoryItem]:
        """:meth:`remember`, also saying whether it added the memory or merged it."""
        text = _check_text(text, "text")
        if kind not in ("fact", "turn"):
            raise InvalidArgumentError(f"kind must be 'fact' or 'turn', got {shown(kind)}")
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InvalidArgumentError(
                "metadata must be a dict of value fields such as {'topic': 'health'}, got "
                f"{type(metadata).__name__} {shown(metadata)}"
            )
        sources = _check_texts(sources, "sources", "['mem-3f2a...']")
        extra = dict(metadata or {})
        reserved = sorted(RESERVED_FIELDS & extra.keys())
        if reserved:
            raise InvalidArgumentError(
                f"metadata may not set {', '.join(reserved)}: memvault writes these fields "
                "itself; rename yours"
            )

        def attempt() -> tuple[ChangeEvent, MemoryItem]:
            # read, merge, and write only over what was read: a conflict (another thread or
            # process wrote the memory meanwhile) reads again, so nothing is lost or doubled
            key, old = self._key_and_memory_saying(text)
            if old is None:
                old = self._near_duplicate(text)
            value = self._merged(old, text, kind, sources)
            value.update(extra)
            try:
                item = self.store.put(
                    self.namespace,
                    key if old is None else old.key,
                    value,
                    ttl=self.memory.ttl,
                    source=source,
                    event="merge" if old is not None else None,
                    if_updated_at=None if old is None else old.updated_at,
                )
            except InvalidValueError as error:
                raise InvalidValueError(f"metadata: {error}") from None
            return ("merge" if old is not None else "add"), item

        return retrying(attempt)

    def _key_and_memory_saying(self, text: str) -> tuple[str, MemoryItem | None]:
        """The key a memory saying ``text`` has here, and that memory if one is stored.

        That is :func:`~memvault.statements.memory_key` of the text, unless the memory under
        it was since updated to say something else (an UPDATE keeps its key, and its history):
        then the first of ``<key>-2``, ``<key>-3``... that is free or says ``text``.
        """
        key = memory_key(text)
        for number in range(1, 1000):
            candidate = key if number == 1 else f"{key}-{number}"
            stored = self.store.get(self.namespace, candidate)
            if stored is None or memory_key(stored.text) == key:
                return candidate, stored
        raise InvalidArgumentError(f"text: 1,000 memories were updated away from {text!r}")

    def _merged(
        self, old: MemoryItem | None, text: str, kind: Kind, sources: Sequence[str]
    ) -> dict[str, Any]:
        """The value of a memory that says ``text``, merged into ``old`` (see :meth:`remember`)."""
        value: dict[str, Any] = dict(old.value) if old is not None else {}
        value["text"] = text
        value["kind"] = "fact" if kind == "fact" or value.get("kind") == "fact" else "turn"
        if value["kind"] == "turn":
            value["role"] = "user"
        else:
            value.pop("role", None)
        value["mentions"] = int(value.get("mentions", 0)) + 1
        if self.session_id is not None:
            sessions = [s for s in value.get("sessions", []) if s != self.session_id]
            value["sessions"] = [*sessions, self.session_id][-MAX_SESSIONS:]
            value["session_id"] = self.session_id
        merged_sources = list(dict.fromkeys([*value.get("sources", []), *sources]))
        if merged_sources:
            value["sources"] = merged_sources
        return value

    def _near_duplicate(self, text: str) -> MemoryItem | None:
        threshold = self.memory.similarity_threshold
        if threshold is None:
            return None
        nearest = self.store.search(self.namespace, query=text, mode="dense", limit=CANDIDATES)
        for item in nearest:
            if item.namespace == self.namespace and near_duplicate(
                text, item.text, item.score, threshold
            ):
                return item
        return None

    def reconcile(
        self, facts: Sequence[str], *, sources: Iterable[str] = (), source: str = "api"
    ) -> list[MemoryChange]:
        """Store new facts, deciding with the reconciler how each changes what is stored.

        A fact that a stored memory says word for word (the same
        :func:`~memvault.statements.memory_key` as its current text) is merged into it
        (:meth:`remember`, no call). For the others, the memories of this namespace (not those
        below it) nearest to each (``reconciler.candidates`` per fact, however far: any stored
        memory qualifies) are shown to the model in **one** call, which decides ADD, UPDATE,
        DELETE or NONE per fact (:mod:`memvault.reconcile`); no call is made when the namespace
        is empty. A failed call or a reply that cannot be read logs a warning and adds every
        fact, deleting nothing. A decision about a memory that changed since the model saw it
        (another writer) is not applied: a stale UPDATE adds its text, a stale DELETE is
        dropped. Without a reconciler every fact is remembered (added or merged).

        Args:
            facts: Short self-contained facts, e.g. ``["The user moved to Porto."]``.
            sources: Keys of the memories they were derived from (provenance).
            source: Who wrote them, recorded in the history (e.g. ``"tool"``, ``"extractor"``).

        Returns:
            What happened, one :class:`MemoryChange` per decision, in order.

        Raises:
            InvalidArgumentError: If ``facts`` or ``sources`` is not a list of strings, or a
                fact is blank.
        """
        keys, changes, fresh, existing = self._prepare(facts, sources, source)
        decisions = add_all(fresh)
        if self.memory.reconciler is not None and fresh and existing:
            try:
                decisions = self.memory.reconciler.decide(fresh, existing)
            except ReconciliationError as error:
                _warn_unreadable(error)
        return changes + self._apply(decisions, keys, source)

    async def areconcile(
        self, facts: Sequence[str], *, sources: Iterable[str] = (), source: str = "api"
    ) -> list[MemoryChange]:
        """Async form of :meth:`reconcile`: the same arguments, result and errors.

        The model's own async method is awaited (``ainvoke``, ``acomplete``...); the store
        work runs in a worker thread.
        """
        keys, changes, fresh, existing = await asyncio.to_thread(
            self._prepare, facts, sources, source
        )
        decisions = add_all(fresh)
        if self.memory.reconciler is not None and fresh and existing:
            try:
                decisions = await self.memory.reconciler.adecide(fresh, existing)
            except ReconciliationError as error:
                _warn_unreadable(error)
        return changes + await asyncio.to_thread(self._apply, decisions, keys, source)

    def _prepare(
        self, facts: Any, sources: Any, source: str
    ) -> tuple[list[str], list[MemoryChange], list[str], list[MemoryItem]]:
        """Check the facts and sources, merge the repeats, and find the others' candidates.

        Returns:
            The checked sources, the merges made, the facts left to decide, the candidates.
        """
        facts = [
            _check_text(fact, f"facts[{index}]")
            for index, fact in enumerate(_check_texts(facts, "facts", "['...']"))
        ]
        sources = _check_texts(sources, "sources", "['mem-3f2a...']")
        changes: list[MemoryChange] = []
        fresh: list[str] = []
        for fact in dict.fromkeys(facts):
            if self.memory.reconciler is None or self._key_and_memory_saying(fact)[1] is not None:
                event, item = self._remember(fact, None, "fact", sources, source)
                changes.append(MemoryChange(event, fact, item))
            else:
                fresh.append(fact)
        return sources, changes, fresh, self._candidates(fresh)

    def _candidates(self, texts: Sequence[str]) -> list[MemoryItem]:
        """The memories of this namespace, not below it, most similar to each text, each once."""
        if self.memory.reconciler is None:
            return []
        wanted = self.memory.reconciler.candidates
        found: dict[str, MemoryItem] = {}
        for text in texts:
            pool = self.store.search(self.namespace, query=text, limit=4 * wanted)
            for item in [i for i in pool if i.namespace == self.namespace][:wanted]:
                found.setdefault(item.key, item)
        return list(found.values())

    def _apply(
        self, decisions: list[Decision], sources: list[str], source: str
    ) -> list[MemoryChange]:
        """Carry out the reconciler's decisions, in order."""
        changes: list[MemoryChange] = []
        for decision in decisions:
            target = decision.target
            if decision.event == "ADD":
                assert decision.text is not None
                event, item = self._remember(decision.text, None, "fact", sources, source)
                changes.append(MemoryChange(event, decision.fact, item))
                continue
            if decision.event == "NONE":
                assert target is not None
                changes.append(MemoryChange("none", decision.fact, target))
                continue
            assert target is not None
            if decision.event == "DELETE":
                current = self.store.get(target.namespace, target.key)
                if current is not None and current.updated_at == target.updated_at:
                    self.store.delete(target.namespace, target.key, source=source)
                    changes.append(
                        MemoryChange("delete", decision.fact, target, before=target.text)
                    )
                    continue
            else:  # UPDATE: written only over the version the model saw (compare-and-set)
                updated = self._updated(target, decision, sources, source)
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
                event, item = self._remember(decision.text, None, "fact", sources, source)
                changes.append(MemoryChange(event, decision.fact, item))
        return changes

    def _updated(
        self, current: MemoryItem, decision: Decision, sources: list[str], source: str
    ) -> MemoryChange | None:
        """Write an UPDATE over ``current``, only if no one wrote it since it was read.

        Returns:
            The change, or ``None`` where the memory changed meanwhile (a
            :class:`~memvault.errors.ConflictError`): the decision is stale then.
        """
        assert decision.text is not None
        value = self._merged(current, decision.text, "fact", sources)
        value["mentions"] = int(current.value.get("mentions", 1))
        try:
            item = self.store.put(
                current.namespace,
                current.key,
                value,
                ttl=self.memory.ttl,
                source=source,
                if_updated_at=current.updated_at,
            )
        except ConflictError:
            return None
        return MemoryChange("update", decision.fact, item, before=current.text)

    def save_turns(
        self, messages: Sequence[Mapping[str, Any]], *, timestamp: float | None = None
    ) -> list[MemoryItem]:
        """Store a finished turn of a conversation.

        Without an extractor, each user message's statements
        (:func:`~memvault.statements.memorable_text`) become one ``kind="turn"`` memory;
        questions, requests and pleasantries store nothing. With one, the facts it draws
        from the user and assistant messages go through :meth:`reconcile` (with a reconciler:
        one more LLM call when stored memories are similar) as ``kind="fact"`` memories whose
        ``sources`` are the keys of the user's statements; if the extractor's call fails or its
        reply cannot be used (:class:`~memvault.errors.ExtractionError`: a timeout, a reply without
        JSON, cut off, or with wordless facts), a warning is logged and the statements are
        stored instead, so a turn is never lost.

        With a reconciler and no extractor, **one** call draws the facts and decides them
        against the memories most similar to the user's statements
        (:meth:`~memvault.Reconciler.decide_turn`); a failed call, or a reply that cannot be read
        or holds an invalid decision, changes nothing stored and stores the statements.

        A statement is stored with a ``context``, as an ingested conversation's turns are
        (:func:`memvault.conversations.with_context`, the same function): the turn's date
        (``timestamp``, written as ``"1:56 pm on 8 May, 2023"``), then the two messages before
        it, the whole message it is from and the message after it, each as ``speaker: text``
        (the speaker is a message's ``"name"``, else its role). The store embeds and indexes
        the context with the text (:func:`memvault.lexical.indexed_text`), so "Yes, last
        Friday!" is found by the question it answers; ``text`` stays what the user said. The
        messages before may be the last of the session's previous turns (this memory keeps the
        last turns of each namespace and session, see :mod:`memvault.turn_context`); when the
        message after is not in this turn (a turn that ends with the user's message), the
        memory's context is completed when the next turn of the session is saved, in one
        write, unless the memory changed meanwhile. Facts carry no context.

        LLM calls per turn: 0 without a model, and for a turn without a statement when only a
        reconciler is set; 1 with a reconciler alone, or an extractor alone; 2 at most with
        both (the second only when a stored memory is similar to a fact that does not repeat
        one word for word).

        With ``AgentMemory(..., background=True)`` the messages are checked here and the rest
        runs on the memory's worker thread (:mod:`memvault.background`): this returns ``[]``
        at once (waiting only while the worker holds
        :data:`~memvault.background.MAX_PENDING` turns), and if storing the turn raises, the
        failure is logged and counted and the user's statements are stored instead.

        Args:
            messages: OpenAI-style messages, ``{"role": "user" | "assistant" | ..., "content":
                str, "name": str (optional, the speaker)}``, oldest first; other roles and
                non-string contents are skipped.
            timestamp: When the turn was said, Unix seconds (UTC), e.g. from the run or a
                replayed conversation; default the time of this call.

        Returns:
            The memories written (added, merged or updated), in order; ``[]`` in the
            background.

        Raises:
            InvalidArgumentError: If ``messages`` is not a sequence of mappings, or
                ``timestamp`` is not Unix seconds from 0 to the end of year 9999.
            StoreClosedError: If the store was closed (checked in the caller, also in the
                background).
        """
        chat = _chat_of(messages)
        when = _turn_time(timestamp, self.store.clock)
        worker = self.memory._worker
        if worker is not None:
            self.store.backend  # noqa: B018 - raises StoreClosedError now, not in the worker
            worker.submit(
                lambda: self._store_turn(chat, when, fall_back=False),
                lambda: self._store_statements(self._enter_session(chat, when)),
            )
            return []
        return self._store_turn(chat, when)

    async def asave_turns(
        self, messages: Sequence[Mapping[str, Any]], *, timestamp: float | None = None
    ) -> list[MemoryItem]:
        """Async form of :meth:`save_turns`: the same arguments, result and errors.

        The extractor's and reconciler's models are awaited with their own async methods; the
        store work runs in a worker thread. In the background, the turn is only queued
        (waiting, without blocking the event loop, for room when the queue is full).
        """
        chat = _chat_of(messages)
        when = _turn_time(timestamp, self.store.clock)
        worker = self.memory._worker
        if worker is not None:
            self.store.backend  # noqa: B018 - raises StoreClosedError now, not in the worker
            await worker.asubmit(
                lambda: self._store_turn(chat, when, fall_back=False),
                lambda: self._store_statements(self._enter_session(chat, when)),
            )
            return []
        window = await asyncio.to_thread(self._enter_session, chat, when)
        extractor, reconciler = self.memory.extractor, self.memory.reconciler
        if extractor is not None:
            try:
                facts = await extractor.aextract(chat)
            except ExtractionError as error:
                _warn_unextracted(error)
                return await asyncio.to_thread(self._store_statements, window)
            changes = await self.areconcile(
                facts, sources=_statement_keys(chat), source="extractor"
            )
            self.memory._tails.record(window)
            return _written(changes)
        if reconciler is None or not _statements(chat):
            return await asyncio.to_thread(self._store_statements, window)
        existing = await asyncio.to_thread(self._candidates, _statements(chat))
        try:
            decisions = await reconciler.adecide_turn(chat, existing)
        except ReconciliationError as error:
            _warn_unextracted(error)
            return await asyncio.to_thread(self._store_statements, window)
        changes = await asyncio.to_thread(
            self._apply, decisions, _statement_keys(chat), "extractor"
        )
        self.memory._tails.record(window)
        return _written(changes)

    def _store_turn(
        self, chat: list[dict[str, str]], when: float, *, fall_back: bool = True
    ) -> list[MemoryItem]:
        """Store a checked turn (:func:`_chat_of`) said at ``when``: see :meth:`save_turns`.

        With ``fall_back=False`` (the background worker, which falls back and counts the
        failure itself) an :class:`~memvault.errors.ExtractionError` propagates instead of
        storing the statements.
        """
        window = self._enter_session(chat, when)
        extractor, reconciler = self.memory.extractor, self.memory.reconciler
        try:
            if extractor is not None:
                facts = extractor.extract(chat)
                changes = self.reconcile(facts, sources=_statement_keys(chat), source="extractor")
                self.memory._tails.record(window)
                return _written(changes)
            if reconciler is None or not _statements(chat):
                return self._store_statements(window)
            existing = self._candidates(_statements(chat))
            decisions = reconciler.decide_turn(chat, existing)
        except ExtractionError as error:
            if not fall_back:
                raise
            _warn_unextracted(error)
            return self._store_statements(window)
        changes = self._apply(decisions, _statement_keys(chat), "extractor")
        self.memory._tails.record(window)
        return _written(changes)

    def _enter_session(self, chat: list[dict[str, str]], when: float) -> Window:
        """The turn's place in its session, with the earlier memories' contexts completed.

        The memories of the session's previous turn that waited for the messages after them
        get their completed contexts in one write (:meth:`MemoryStore.put_many`), each only
        if it still holds the context it was saved with.
        """
        window = self.memory._tails.window((self.namespace, self.session_id), chat, when)

        def attempt() -> None:
            updates, read = [], {}
            for completion in window.completions:
                item = self.store.get(self.namespace, completion.key)
                if item is not None and item.value.get("context") == completion.stored:
                    updates.append((item.key, {**item.value, "context": completion.context}))
                    read[item.key] = item.updated_at
            if updates:
                self.store.put_many(
                    self.namespace,
                    updates,
                    ttl=self.memory.ttl,
                    source="turn",
                    if_updated_at=read,
                )

        retrying(attempt)
        return window

    def _store_statements(self, window: Window) -> list[MemoryItem]:
        """Store the user's statements of a turn as ``kind="turn"`` memories with contexts."""
        items: list[MemoryItem] = []
        keys: list[str | None] = []
        for message, turn in zip(window.messages, window.turns):
            said = memorable_text(message["content"]) if message["role"] == "user" else None
            if said is None:
                keys.append(None)
                continue
            item = self._remember(said, {"context": turn.context}, "turn", (), "turn")[1]
            items.append(item)
            keys.append(item.key)
        self.memory._tails.record(window, keys)
        return items

    def forget(self, memory: str, *, source: str = "api") -> list[MemoryItem]:
        """Remove a memory, by key or by description, with what it was derived from.

        ``memory`` is first tried as the key of a memory in this namespace; if none has it,
        it is read as a description (a leading "forget that" is dropped) and every memory in
        scope that states it is removed (:func:`~memvault.statements.states`: the description's
        content words all appear in it). Then, for each memory removed, the memories listed in
        its ``sources`` and every memory that states its text go too, so a forgotten fact's
        raw turns do not bring it back.

        Args:
            memory: A key (``"mem-3f2a..."``) or a description (``"that I am learning
                Portuguese"``).
            source: Who forgets, recorded in the history of each memory removed (``"api"``,
                ``"tool"``...).

        Returns:
            The memories removed (``[]`` when nothing matched).

        Raises:
            InvalidArgumentError: If ``memory`` is blank.
        """
        memory = _check_text(memory, "memory")
        found = self.store.get(self.namespace, memory)
        targets = [found] if found is not None else self._memories_stating(description_of(memory))
        removed = {(t.namespace, t.key): t for t in targets}
        for target in targets:
            for key in target.value.get("sources", []):
                origin = self.store.get(target.namespace, key)
                if origin is not None:
                    removed.setdefault((origin.namespace, origin.key), origin)
            for item in self._memories_stating(target.text):
                removed.setdefault((item.namespace, item.key), item)
        for namespace, key in removed:
            self.store.delete(namespace, key, source=source)
        return list(removed.values())

    def _memories_stating(self, description: str) -> list[MemoryItem]:
        pool = self.store.search(
            self.namespace, query=description, mode="dense", limit=STATING_POOL
        )
        return [item for item in pool if states(description, item.text)]

    # -- reads ------------------------------------------------------------------------------

    def recall(
        self, query: str | None, k: int | None = None, *, exclude: Iterable[str] = ()
    ) -> list[MemoryItem]:
        """Memories for a query, best first, each saying one thing once.

        Searches the namespace (and below) in the store's default mode with the memory's
        filter, then drops memories that say what another already returned says (the same
        :func:`~memvault.statements.memory_key`, whatever their stored keys) or what
        ``exclude`` says (its texts as said, or the statements in them: a question about a
        memory does not exclude it), and puts every memory
        that holds no statement (a stored question, request or pleasantry) after those that
        do.

        Args:
            query: Usually the latest user message; ``None`` or blank recalls nothing.
            k: Most memories, 1 to 1000; default the memory's ``k``.
            exclude: Texts already in the conversation (e.g. the chat history's messages).

        Returns:
            Up to ``k`` items.

        Raises:
            InvalidArgumentError: On a bad ``k``, a query that is not a UTF-8 str, or an
                ``exclude`` that is not a list of strings.
        """
        k = self.memory.k if k is None else check_k(k)
        if query is not None and (not isinstance(query, str) or not is_utf8(query)):
            raise InvalidArgumentError(
                f"query must be a UTF-8 str or None, got {type(query).__name__} {shown(query)}"
            )
        exclude = _check_texts(exclude, "exclude", "the chat history's texts", utf8=False)
        if not (query and query.strip()):
            return []
        skip = set()
        for text in exclude:
            skip.add(memory_key(text))
            stated = memorable_text(text)  # a question about a memory does not exclude it
            if stated:
                skip.add(memory_key(stated))
        pool = self.store.search(
            self.namespace, query=query, filter=self.memory.filter, limit=3 * k + len(skip)
        )
        statements: list[MemoryItem] = []
        chatter: list[MemoryItem] = []
        for item in pool:
            key = memory_key(item.text)
            if key in skip:
                continue
            skip.add(key)
            (statements if memorable_text(item.text) else chatter).append(item)
        return (statements + chatter)[:k]

    def context(self, query: str | None, *, exclude: Iterable[str] = ()) -> str:
        """:meth:`recall` for ``query`` rendered by :meth:`AgentMemory.render`.

        Returns:
            The fenced block, or ``""`` when nothing was recalled.

        Raises:
            InvalidArgumentError: As :meth:`recall`.
        """
        return self.memory.render(self.recall(query, exclude=exclude))

    def list(self, limit: int = 20, offset: int = 0) -> list[MemoryItem]:
        """The memories in scope, most recently updated first.

        Args:
            limit: Most memories, 1 to 1,000,000.
            offset: Memories to skip first.

        Returns:
            The items.

        Raises:
            InvalidArgumentError: On a bad ``limit`` or ``offset``.
        """
        return self.store.search(
            self.namespace, filter=self.memory.filter, limit=limit, offset=offset
        )

    aremember = async_twin(remember)
    aforget = async_twin(forget)
    arecall = async_twin(recall)
    acontext = async_twin(context)
    alist = async_twin(list)


def memory_context(
    store: MemoryStore,
    query: str | None,
    *,
    namespace: Namespace,
    k: int = 5,
    filter: Filter | None = None,
    header: str = DEFAULT_MEMORY_HEADER,
) -> str:
    """Recall up to ``k`` memories for ``query`` from one namespace, as the fenced block.

    The recall policy of :meth:`MemoryScope.recall` (no duplicates, statements first) over a
    namespace that is already resolved.

    Args:
        store: A :class:`~memvault.MemoryStore`.
        query: Usually the latest user message; ``None`` or blank recalls nothing.
        namespace: Where to search (and below); resolve templates with
            :func:`~memvault.resolve_namespace` first.
        k: Most memories, 1 to 1000.
        filter: Optional metadata filter (see :mod:`memvault.filters`).
        header: Text before the fence.

    Returns:
        The fenced block, or ``""`` when the query is blank or nothing matched.

    Raises:
        InvalidArgumentError: If ``store`` is not a store, ``query`` is not a UTF-8 str or
            None, ``k`` is out of range or ``header`` is not a str.
        InvalidNamespaceError, InvalidFilterError: On a bad namespace or filter.
    """
    memory = AgentMemory(store, namespace, k=k, filter=filter, header=header)
    return memory.scope().context(query)


async def amemory_context(store: MemoryStore, query: str | None, **options: Any) -> str:
    """Async form of :func:`memory_context` (same arguments, result and errors), in a thread."""
    return await asyncio.to_thread(memory_context, store, query, **options)
