"""Agent middleware: recall memories into the system message, save each turn after it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage

from langchain_memvault.run_scope import run_values
from memvault import (
    DEFAULT_MEMORY_HEADER,
    NOT_GIVEN,
    ExtractionError,
    FactExtractor,
    MemoryStore,
    amemory_context,
    fact_key,
    memory_context,
    resolve_namespace,
)
from memvault.filters import Filter
from memvault.namespace import Namespace, validate_namespace

logger = logging.getLogger(__name__)


def _current_config() -> dict[str, Any] | None:
    try:
        from langgraph.config import get_config

        return dict(get_config())
    except RuntimeError:
        return None


def latest_human_text(messages: Sequence[AnyMessage]) -> str | None:
    """Return the text of the last ``HumanMessage`` in ``messages``, or ``None``."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.text)
    return None


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


def _warn_extraction_failed(error: ExtractionError) -> None:
    logger.warning(
        "fact extraction failed, storing the raw turn instead: %s (reply: %r)",
        error,
        (error.raw or "")[:200],
    )


class MemoryMiddleware(AgentMiddleware):
    """Long-term memory for ``langchain.agents.create_agent``, in one line.

    Before each model call (``wrap_model_call`` / ``awrap_model_call``) it recalls up to ``k``
    memories for the latest human message from the run's namespace and appends them to the
    system message as the fenced block of :func:`memvault.memory_context`, which tells the model
    to read them as data. After the agent turn (``after_agent`` / ``aafter_agent``) it stores
    what the user said: each human message of the turn as a memory
    ``{"text": ..., "kind": "turn", "role": "user", "thread_id": ...}`` under key
    ``"turn-<message id>"``, or, given an ``extractor``, the facts it draws from the turn's
    user and assistant messages (:meth:`memvault.FactExtractor.save`). If the extractor's reply
    cannot be parsed (:class:`memvault.ExtractionError`), it logs a warning and stores the raw
    turn instead, so saving never loses the turn's answer.

    The namespace template is filled by :func:`memvault.resolve_namespace` from the runtime
    context (``invoke(..., context=Context(user_id="alice"))``), the ``configurable`` entries
    and the thread id (``{thread_id}``); a missing value raises
    :class:`memvault.InvalidNamespaceError` rather than sharing memories.

    Args:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace template, default ``("users", "{user_id}")``.
        k: Most memories recalled per model call, ``>= 1``.
        filter: Metadata filter for recall (see :mod:`memvault.filters`).
        header: Text before the fence (default :data:`memvault.DEFAULT_MEMORY_HEADER`).
        extractor: A :class:`memvault.FactExtractor` to save facts instead of raw turns.
        save: Whether to store anything after the turn; ``False`` only recalls.
        ttl: Seconds until saved memories expire; ``None`` never; default the store's.

    Raises:
        memvault.InvalidNamespaceError: If ``namespace`` is not a tuple of strings; during a
            run, if a value the template needs is missing.
        memvault.InvalidArgumentError: During a run, if ``k`` is not a positive int.

    """

    def __init__(
        self,
        store: MemoryStore,
        namespace: Namespace = ("users", "{user_id}"),
        *,
        k: int = 5,
        filter: Filter | None = None,
        header: str = DEFAULT_MEMORY_HEADER,
        extractor: FactExtractor | None = None,
        save: bool = True,
        ttl: Any = NOT_GIVEN,
    ) -> None:
        self.store = store
        self.namespace = validate_namespace(namespace)
        self.k = k
        self.filter = filter
        self.header = header
        self.extractor = extractor
        self.save = save
        self.ttl = ttl
        self.tools = []

    def resolve(self, runtime: Any) -> Namespace:
        """Resolve the namespace for the run of ``runtime`` (a LangGraph ``Runtime``).

        Raises:
            memvault.InvalidNamespaceError: If the run lacks a value the template needs.

        """
        return resolve_namespace(self.namespace, run_values(_current_config(), runtime))

    def _recall_args(self, request: ModelRequest) -> dict[str, Any]:
        return {
            "query": latest_human_text(request.messages),
            "namespace": self.resolve(request.runtime),
            "k": self.k,
            "filter": self.filter,
            "header": self.header,
        }

    def wrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], ModelResponse],
    ) -> ModelResponse:
        """Add recalled memories to the system message, then call the model.

        Implements ``AgentMiddleware.wrap_model_call``.
        """
        args = self._recall_args(request)
        block = memory_context(self.store, args.pop("query"), **args)
        return handler(_with_block(request, block))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        """Async form of :meth:`wrap_model_call`."""
        args = self._recall_args(request)
        block = await amemory_context(self.store, args.pop("query"), **args)
        return await handler(_with_block(request, block))

    def _turn(self, state: Any, runtime: Any) -> tuple[Namespace, list[AnyMessage]] | None:
        turn = last_turn(state.get("messages", []))
        if not self.save or not turn:
            return None
        return self.resolve(runtime), turn

    def _raw_items(self, turn: list[AnyMessage], runtime: Any) -> list[tuple[str, dict]]:
        thread_id = run_values(_current_config(), runtime).get("thread_id")
        items = []
        for message in turn:
            if isinstance(message, HumanMessage) and message.text.strip():
                value: dict[str, Any] = {"text": str(message.text), "kind": "turn", "role": "user"}
                if isinstance(thread_id, str):
                    value["thread_id"] = thread_id
                items.append((f"turn-{message.id or fact_key(message.text)}", value))
        return items

    @staticmethod
    def _chat(turn: list[AnyMessage]) -> list[dict[str, str]]:
        roles = {HumanMessage: "user", AIMessage: "assistant"}
        return [
            {"role": roles[type(m)], "content": str(m.text)}
            for m in turn
            if type(m) in roles and m.text.strip()
        ]

    def after_agent(self, state: Any, runtime: Any) -> None:
        """Store what the user said in this turn (raw, or as extracted facts).

        Implements ``AgentMiddleware.after_agent``; returns no state update. An unparsable
        extractor reply is logged and the raw turn stored instead.
        """
        found = self._turn(state, runtime)
        if found is None:
            return None
        namespace, turn = found
        if self.extractor is not None:
            try:
                self.extractor.save(self.store, self._chat(turn), namespace, ttl=self.ttl)
                return None
            except ExtractionError as error:
                _warn_extraction_failed(error)
        self.store.put_many(namespace, self._raw_items(turn, runtime), ttl=self.ttl)
        return None

    async def aafter_agent(self, state: Any, runtime: Any) -> None:
        """Async form of :meth:`after_agent`."""
        found = self._turn(state, runtime)
        if found is None:
            return None
        namespace, turn = found
        if self.extractor is not None:
            try:
                await self.extractor.asave(self.store, self._chat(turn), namespace, ttl=self.ttl)
                return None
            except ExtractionError as error:
                _warn_extraction_failed(error)
        items = self._raw_items(turn, runtime)
        await self.store.aput_many(namespace, items, ttl=self.ttl)
        return None
