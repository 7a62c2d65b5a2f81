"""Agent middleware: recall memories into the system message, save each turn after it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langchain_memvault.run_scope import run_scope
from memvault import AgentMemory, InvalidArgumentError, MemoryScope, MemoryStore
from memvault.arguments import NOT_GIVEN

SCOPES_KEY = "memvault_scopes"
"""The agent-state key where each memory middleware keeps the scope it resolved for the run."""


class MemoryState(AgentState, total=False):
    """Agent state with the memory scopes of the run: private (neither input nor output).

    ``memvault_scopes`` maps a middleware's :attr:`~MemoryMiddleware.name` to the namespace and
    session id it resolved from the run's config and runtime at the start of the run.
    """

    memvault_scopes: Annotated[dict[str, dict[str, Any]], PrivateStateAttr]


def last_turn(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """Return the messages of the last turn: from the user's latest message(s) to the end.

    The turn starts after the last ``AIMessage`` that precedes the last ``HumanMessage``; it is
    empty when there is no ``HumanMessage``.
    """
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if not humans:
        return []
    start = humans[-1]
    while start > 0 and not isinstance(messages[start - 1], AIMessage):
        start -= 1
    return list(messages[start:])


def _query_and_history(messages: Sequence[AnyMessage]) -> tuple[str | None, list[str]]:
    """The latest human message's text, and the texts of every message, that one included.

    A memory the conversation already holds, the message being answered too, is not recalled
    again (as LlamaIndex's ``Memory`` hands its blocks the whole history).
    """
    latest = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    query = str(messages[latest].text) if latest >= 0 else None
    return query, [str(m.text) for m in messages if m.text]


def _chat(messages: Sequence[AnyMessage]) -> list[dict[str, str]]:
    """Human and AI messages as OpenAI-style ``{"role", "content"}`` dicts, in order."""
    chat = []
    for message in messages:
        if isinstance(message, (HumanMessage, AIMessage)):
            role = "user" if isinstance(message, HumanMessage) else "assistant"
            chat.append({"role": role, "content": str(message.text)})
    return chat


def _with_block(request: ModelRequest, block: str) -> ModelRequest:
    if not block:
        return request
    system = request.system_message
    if system is None:
        return request.override(system_message=SystemMessage(content=block))
    if isinstance(system.content, str):
        content: Any = f"{system.content}\n\n{block}" if system.content else block
    else:
        content = [*system.content, {"type": "text", "text": block}]
    return request.override(system_message=system.model_copy(update={"content": content}))


class MemoryMiddleware(AgentMiddleware):
    """Long-term memory for ``langchain.agents.create_agent``, in one line.

    Before each model call (``wrap_model_call`` / ``awrap_model_call``) it appends to the
    system message what :meth:`memvault.MemoryScope.context` recalls for the latest human
    message (the fenced block that tells the model to read memories as data), leaving out
    memories that repeat a message already in the conversation, within the memory's
    ``max_memory_chars`` and ``max_block_chars`` (:meth:`memvault.AgentMemory.render`). After
    the agent turn (``after_agent`` / ``aafter_agent``) it hands the turn's user and assistant
    messages to :meth:`memvault.MemoryScope.save_turns`, which stores the user's statements (not
    questions, requests or pleasantries) as ``kind="turn"`` memories, each with a ``context``
    of the date and the messages around it (the agent's reply before it, from the thread's
    previous run, and after it), as an ingested conversation's turns have; or, with an
    ``extractor``, the facts it draws (falling back to the statements, with a logged warning,
    when the extractor's reply cannot be parsed). The thread id is the session id recorded on
    what is saved.

    The namespace template is filled from the runtime context
    (``invoke(..., context=Context(user_id="alice"))``), the ``configurable`` entries and the
    thread id (``{thread_id}``); a missing value raises
    :class:`memvault.errors.InvalidNamespaceError` rather than sharing memories.

    Two instances (e.g. the user's memory and the organisation's) can serve one agent when
    their names differ: give one ``name=``, or an :class:`memvault.AgentMemory` with its own
    ``name``.

    The scope is resolved once, when the agent run starts (``before_agent``, which LangGraph
    hands the run's config), and kept in the agent state (:class:`MemoryState`) for the model
    calls and the save: before Python 3.11 an async run's config does not reach the code of
    its later steps, so ``configurable`` values would be lost there.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped as ``AgentMemory(store, namespace, k=k, filter=filter, header=header,
            extractor=extractor, reconciler=reconciler, ttl=ttl)``.
        namespace: With a store: the namespace template, default ``("users", "{user_id}")``.
        k: With a store: most memories recalled per model call, 1 to 1000; default 5.
        filter: With a store: metadata filter for recall (see :mod:`memvault.filters`).
        header: With a store: text before the fence (default
            :data:`memvault.context.DEFAULT_MEMORY_HEADER`).
        extractor: With a store: a :class:`memvault.FactExtractor` to save facts instead of the
            user's statements.
        reconciler: With a store: a :class:`memvault.Reconciler` deciding, in one model call,
            how the extracted facts change the stored memories (ADD, UPDATE, DELETE, NONE).
        save: Whether to store anything after the turn; ``False`` only recalls.
        ttl: With a store: seconds until saved memories expire; ``None`` never; default the
            store's.
        name: Names this middleware ``MemoryMiddleware[<name>]``; default the memory's name
            (``MemoryMiddleware`` for the default ``"memvault"``). An identifier.
        background: With a store: ``True`` saves each turn on the memory's worker thread, so
            the reply does not wait for extraction (see :mod:`memvault.background`); wait for
            it with :meth:`flush` / :meth:`aflush`. Default ``False``: the save is part of the
            run. (With an AgentMemory, its own ``background`` applies.)

    Raises:
        memvault.InvalidArgumentError: If ``memory_or_store`` is neither, options come with an
            AgentMemory, an option is out of range, ``name`` is not an identifier, or
            ``background`` is not a bool.
        memvault.errors.InvalidNamespaceError: If ``namespace`` is not a tuple of strings; during a
            run, if a value the template needs is missing.
        memvault.errors.InvalidFilterError: If ``filter`` is not a valid filter.

    Example:
        >>> user = MemoryMiddleware(store, ("users", "{user_id}"))  # doctest: +SKIP
        >>> org = MemoryMiddleware(store, ("orgs", "{org_id}"), name="org")  # doctest: +SKIP
        >>> agent = create_agent(model, middleware=[user, org])  # doctest: +SKIP
    """

    state_schema = MemoryState

    def __init__(
        self,
        memory_or_store: AgentMemory | MemoryStore,
        namespace: Sequence[str] = NOT_GIVEN,
        *,
        k: int = NOT_GIVEN,
        filter: Any = NOT_GIVEN,
        header: str = NOT_GIVEN,
        extractor: Any = NOT_GIVEN,
        reconciler: Any = NOT_GIVEN,
        save: bool = True,
        ttl: Any = NOT_GIVEN,
        name: str | None = None,
        background: bool = NOT_GIVEN,
    ) -> None:
        self.memory = AgentMemory.of(
            memory_or_store,
            namespace=namespace,
            k=k,
            filter=filter,
            header=header,
            extractor=extractor,
            reconciler=reconciler,
            ttl=ttl,
            background=background,
        )
        if name is not None and (not isinstance(name, str) or not name.isidentifier()):
            raise InvalidArgumentError(
                f"name must be an identifier such as 'user' or 'org', got {name!r}"
            )
        self.memory_name = self.memory.name if name is None else name
        self.save = save
        self.tools = []

    @property
    def name(self) -> str:
        """``"MemoryMiddleware"``, or ``"MemoryMiddleware[<name>]"`` for a named memory."""
        if self.memory_name == "memvault":
            return "MemoryMiddleware"
        return f"MemoryMiddleware[{self.memory_name}]"

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every turn saved in the background so far is stored.

        :meth:`memvault.AgentMemory.flush` of this middleware's memory; returns at once
        without ``background=True``.

        Args:
            timeout: Most seconds to wait (>= 0); ``None`` (default) waits until done.

        Returns:
            ``True`` if those turns are stored, ``False`` if the timeout came first.

        Raises:
            memvault.InvalidArgumentError: If ``timeout`` is not ``None`` or seconds >= 0.
        """
        return self.memory.flush(timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async form of :meth:`flush`: the same arguments, result and errors.

        The event loop never blocks while it waits.
        """
        return await self.memory.aflush(timeout)

    def scope(self, runtime: Any) -> MemoryScope:
        """The memory resolved for the run of ``runtime`` (a LangGraph ``Runtime``).

        Raises:
            memvault.errors.InvalidNamespaceError: If the run lacks a value the template needs.
        """
        return run_scope(self.memory, None, runtime)

    def _run_scope(self, state: Any, runtime: Any) -> MemoryScope:
        """The scope :meth:`before_agent` resolved for this run, else :meth:`scope`."""
        resolved = ((state or {}).get(SCOPES_KEY) or {}).get(self.name)
        if resolved is None:  # a call from outside create_agent's graph
            return self.scope(runtime)
        return MemoryScope(self.memory, tuple(resolved["namespace"]), resolved["session_id"])

    # LangGraph passes `config` to a node whose signature takes it (annotated RunnableConfig);
    # AgentMiddleware.before_agent's signature leaves it out.
    def before_agent(  # type: ignore[override]
        self, state: Any, runtime: Any, config: RunnableConfig
    ) -> dict[str, Any]:
        """Resolve the memory for this run from its config and runtime, into the agent state.

        Implements ``AgentMiddleware.before_agent`` (async runs call it too); LangGraph passes
        ``config``.

        Raises:
            memvault.errors.InvalidNamespaceError: If the run lacks a value the template needs.
        """
        scope = run_scope(self.memory, config, runtime)
        resolved = {"namespace": list(scope.namespace), "session_id": scope.session_id}
        return {SCOPES_KEY: {**(state.get(SCOPES_KEY) or {}), self.name: resolved}}

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], ModelResponse],
    ) -> ModelResponse:
        """Add recalled memories to the system message, then call the model.

        Implements ``AgentMiddleware.wrap_model_call``.
        """
        query, history = _query_and_history(request.messages)
        block = self._run_scope(request.state, request.runtime).context(query, exclude=history)
        return handler(_with_block(request, block))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        """Async form of :meth:`wrap_model_call`."""
        query, history = _query_and_history(request.messages)
        scope = self._run_scope(request.state, request.runtime)
        block = await scope.acontext(query, exclude=history)
        return await handler(_with_block(request, block))

    def _turn(self, state: Any) -> list[dict[str, str]]:
        return _chat(last_turn(state.get("messages", []))) if self.save else []

    def after_agent(self, state: Any, runtime: Any) -> None:
        """Store the turn: the user's statements, or the facts the extractor draws.

        Implements ``AgentMiddleware.after_agent``; returns no state update.
        """
        turn = self._turn(state)
        if turn:
            self._run_scope(state, runtime).save_turns(turn)

    async def aafter_agent(self, state: Any, runtime: Any) -> None:
        """Async form of :meth:`after_agent`."""
        turn = self._turn(state)
        if turn:
            await self._run_scope(state, runtime).asave_turns(turn)
