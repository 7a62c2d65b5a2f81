"""Calling the language model that extraction and reconciliation use, sync or async.

memvault imports no framework, so it calls a model by the convention its object follows, in
this order:

1. ``invoke(messages, config=...)`` / ``ainvoke`` (a LangChain chat model or any Runnable):
   the messages as ``{"role", "content"}`` dicts, and a ``config`` whose tags
   (:data:`NOSTREAM_TAGS`) keep the call out of the user's ``stream_mode="messages"`` stream
   (LangGraph's ``TAG_NOSTREAM``) while tracing still sees it, under the run name
   ``"memvault"``;
2. ``complete(prompt)`` / ``acomplete`` (a LlamaIndex LLM): the messages joined into one prompt;
3. ``chat(messages)`` / ``achat``: the dicts;
4. a callable ``list[dict] -> str`` (or an ``async def`` one).

The async forms use the model's own async method where it has one (``ainvoke``,
``acomplete``, ``achat``, a coroutine function) and run the sync call in a worker thread
otherwise, so the event loop never blocks on a model.

Each convention and its async method is a runtime-checkable protocol (:class:`Invokes`,
:class:`InvokesAsync`, :class:`Completes`, :class:`CompletesAsync`, :class:`Chats`,
:class:`ChatsAsync`): what a model offers is declared there and recognised with
``isinstance``, in this module only.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import re
from collections.abc import Awaitable
from typing import Any, Protocol, runtime_checkable

import json_repair

from memvault.errors import ExtractionError, InvalidArgumentError

Messages = list[dict[str, str]]
"""OpenAI-style chat messages: ``[{"role": "system" | "user" | "assistant", "content": str}]``."""

NOSTREAM_TAGS = ("nostream", "langsmith:nostream")
"""Tags on memvault's model calls: LangGraph leaves runs tagged ``nostream`` out of
``stream_mode="messages"`` (``langgraph.constants.TAG_NOSTREAM``; older releases used
``langsmith:nostream``)."""

RUN_NAME = "memvault"
"""The run name memvault's model calls carry in LangChain traces."""


@runtime_checkable
class Invokes(Protocol):
    """A LangChain chat model or any Runnable: called with the messages and a ``config``."""

    def invoke(self, input: Messages, config: dict[str, Any] | None = None) -> Any:
        """The reply: a message with a str ``content``, or a str."""
        ...


@runtime_checkable
class Completes(Protocol):
    """A LlamaIndex LLM: called with one prompt, the messages joined by blank lines."""

    def complete(self, prompt: str) -> Any:
        """The reply: a completion with a str ``text``, or a str; may be awaitable."""
        ...


@runtime_checkable
class Chats(Protocol):
    """A chat model called with the ``{"role", "content"}`` dicts."""

    def chat(self, messages: Messages) -> Any:
        """The reply: a chat response with ``message.content``, or a str; may be awaitable."""
        ...


@runtime_checkable
class InvokesAsync(Invokes, Protocol):
    """An :class:`Invokes` model with its own async method, which the async paths await."""

    async def ainvoke(self, input: Messages, config: dict[str, Any] | None = None) -> Any:
        """Async form of :meth:`Invokes.invoke`."""
        ...


@runtime_checkable
class CompletesAsync(Completes, Protocol):
    """A :class:`Completes` model with its own async method, which the async paths await."""

    async def acomplete(self, prompt: str) -> Any:
        """Async form of :meth:`Completes.complete`."""
        ...


@runtime_checkable
class ChatsAsync(Chats, Protocol):
    """A :class:`Chats` model with its own async method, which the async paths await."""

    async def achat(self, messages: Messages) -> Any:
        """Async form of :meth:`Chats.chat`."""
        ...


_CONVENTIONS = (Invokes, Completes, Chats)


def check_llm(llm: Any, field: str = "llm") -> Any:
    """Check that ``llm`` follows one of the conventions in this module's docstring.

    Args:
        llm: The model.
        field: The argument's name, for the error.

    Returns:
        ``llm``.

    Raises:
        InvalidArgumentError: If it has none of ``invoke``, ``complete``, ``chat`` and is not
            callable.
    """
    if not (callable(llm) or isinstance(llm, _CONVENTIONS)):
        raise InvalidArgumentError(
            f"{field} must be a callable list[dict] -> str or have invoke/complete/chat, got "
            f"{type(llm).__name__}"
        )
    return llm


def _config() -> dict[str, Any]:
    return {"tags": list(NOSTREAM_TAGS), "run_name": RUN_NAME}


def _prompt(messages: Messages) -> str:
    return "\n\n".join(message["content"] for message in messages)


def reply_text(reply: Any, error: type[ExtractionError] = ExtractionError) -> str:
    """The text of a model's reply.

    Args:
        reply: A str, or an object with a str ``content`` (LangChain messages), ``text``
            (LlamaIndex completions) or ``message.content`` (LlamaIndex chat responses).
        error: What to raise: :class:`~memvault.errors.ExtractionError` or a subclass.

    Returns:
        The text.

    Raises:
        ExtractionError: ``error``, if no text can be read from it.
    """
    if isinstance(reply, str):
        return reply
    for path in (("content",), ("text",), ("message", "content")):
        value = reply
        for attribute in path:
            value = getattr(value, attribute, None)
        if isinstance(value, str):
            return value
    raise error(f"cannot read text from an LLM reply of type {type(reply).__name__}", raw="")


def _complete(text: str) -> bool:
    """Whether the JSON value that ``text`` starts with closes (brackets balance outside strings).

    A reply cut off at the model's token limit does not, and repairing it would invent its end
    (an UPDATE to ``"The user"``).
    """
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return True
    return False


def reply_json(reply: str, error: type[ExtractionError]) -> Any:
    """The JSON value in a model's reply, repaired when broken (``json-repair``).

    Read after any ``<think>`` preamble, inside any code fence, from the first ``{`` or ``[``.
    Broken JSON (single quotes, trailing commas, a missing comma) is repaired; a value that
    never closes (the reply was cut off) is refused rather than completed.

    Args:
        reply: The model's text.
        error: The error to raise: :class:`~memvault.errors.ExtractionError` or a subclass.

    Returns:
        The parsed value (a dict, list, str...).

    Raises:
        ExtractionError: ``error``, if the reply holds no ``{`` or ``[``, its value never
            closes, or it nests too deep to read; ``raw`` is the reply.
    """
    text = re.sub(r"<think>.*?(</think>|$)", "", reply, flags=re.DOTALL | re.IGNORECASE)
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, flags=re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise error(f"the LLM reply holds no JSON: {reply[:200]!r}", raw=reply)
    if not _complete(text[start:]):
        raise error(
            f"the LLM reply was cut off before its JSON closed: {reply[-200:]!r}", raw=reply
        )
    try:
        return json_repair.loads(text[start:])
    except RecursionError:
        raise error("the LLM reply nests too deep to read", raw=reply[:200]) from None


def _settled(result: Any) -> Any:
    """A sync call's result; an awaitable (an ``async def`` callable's) is run to its end."""
    if not inspect.isawaitable(result):
        return result

    async def wait() -> Any:
        return await result

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # no event loop runs in that thread
        return pool.submit(asyncio.run, wait()).result()


def generate(llm: Any, messages: Messages, error: type[ExtractionError] = ExtractionError) -> str:
    """Call ``llm`` once, synchronously, by its convention (see the module docstring).

    Args:
        llm: A model checked by :func:`check_llm`.
        messages: The prompt, oldest first.
        error: What to raise when the call fails: :class:`~memvault.errors.ExtractionError` or a
            subclass.

    Returns:
        The reply's text.

    Raises:
        ExtractionError: ``error``, if the model raises (a timeout, a rate limit, a refused
            key: the model's exception is its ``__cause__``) or its reply holds no text.
    """
    try:
        if isinstance(llm, Invokes):
            reply = llm.invoke(messages, config=_config())
        elif isinstance(llm, Completes):
            reply = _settled(llm.complete(_prompt(messages)))
        elif isinstance(llm, Chats):
            reply = _settled(llm.chat(messages))
        else:
            reply = _settled(llm(messages))
    except Exception as failure:
        raise _failed(error, failure) from failure
    return reply_text(reply, error)


def _failed(error: type[ExtractionError], failure: Exception) -> ExtractionError:
    return error(f"the model call failed: {type(failure).__name__}: {failure}", raw="")


def _async_call(llm: Any, messages: Messages) -> Awaitable[Any] | None:
    """The model's own async call for ``messages``, or ``None`` if it has none."""
    if isinstance(llm, Invokes):
        return llm.ainvoke(messages, config=_config()) if isinstance(llm, InvokesAsync) else None
    if isinstance(llm, Completes):
        return llm.acomplete(_prompt(messages)) if isinstance(llm, CompletesAsync) else None
    if isinstance(llm, Chats):
        return llm.achat(messages) if isinstance(llm, ChatsAsync) else None
    # a callable (check_llm): an async def function, or an object whose __call__ is one
    if inspect.iscoroutinefunction(llm) or inspect.iscoroutinefunction(llm.__call__):
        return llm(messages)
    return None


async def agenerate(
    llm: Any, messages: Messages, error: type[ExtractionError] = ExtractionError
) -> str:
    """Async form of :func:`generate`: the model's own async method where it has one.

    ``ainvoke``, ``acomplete``, ``achat`` or an ``async def`` callable are awaited; a model
    with only sync methods is called in a worker thread.

    Raises:
        ExtractionError: As :func:`generate`.
    """
    try:
        call = _async_call(llm, messages)
        if call is None:
            return await asyncio.to_thread(generate, llm, messages, error)
        reply = await call
    except ExtractionError:
        raise
    except Exception as failure:
        raise _failed(error, failure) from failure
    return reply_text(reply, error)
