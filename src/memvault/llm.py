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
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import re
from collections.abc import Awaitable
from typing import Any

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

_CONVENTIONS = ("invoke", "complete", "chat")


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
    if not (callable(llm) or any(hasattr(llm, name) for name in _CONVENTIONS)):
        raise InvalidArgumentError(
            f"{field} must be a callable list[dict] -> str or have invoke/complete/chat, got "
            f"{type(llm).__name__}"
        )
    return llm


def _config() -> dict[str, Any]:
    return {"tags": list(NOSTREAM_TAGS), "run_name": RUN_NAME}


def _prompt(messages: Messages) -> str:
    return "\n\n".join(message["content"] for message in messages)


def reply_text(reply: Any) -> str:
    """The text of a model's reply.

    Args:
        reply: A str, or an object with a str ``content`` (LangChain messages), ``text``
            (LlamaIndex completions) or ``message.content`` (LlamaIndex chat responses).

    Returns:
        The text.

    Raises:
        ExtractionError: If no text can be read from it.
    """
    if isinstance(reply, str):
        return reply
    for path in (("content",), ("text",), ("message", "content")):
        value = reply
        for attribute in path:
            value = getattr(value, attribute, None)
        if isinstance(value, str):
            return value
    raise ExtractionError(f"cannot read text from an LLM reply of type {type(reply).__name__}", "")


def reply_json(reply: str, error: type[ExtractionError]) -> Any:
    """The JSON value in a model's reply, repaired when broken (``json-repair``).

    Read after any ``<think>`` preamble, inside any code fence, from the first ``{`` or ``[``.

    Args:
        reply: The model's text.
        error: The error to raise: :class:`~memvault.ExtractionError` or a subclass.

    Returns:
        The parsed value (a dict, list, str...).

    Raises:
        ExtractionError: ``error``, if the reply holds no ``{`` or ``[``; ``raw`` is the reply.
    """
    text = re.sub(r"<think>.*?(</think>|$)", "", reply, flags=re.DOTALL | re.IGNORECASE)
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, flags=re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise error(f"the LLM reply holds no JSON: {reply[:200]!r}", raw=reply)
    return json_repair.loads(text[start:])


def _settled(result: Any) -> Any:
    """A sync call's result; an awaitable (an ``async def`` callable's) is run to its end."""
    if not inspect.isawaitable(result):
        return result

    async def wait() -> Any:
        return await result

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # no event loop runs in that thread
        return pool.submit(asyncio.run, wait()).result()


def generate(llm: Any, messages: Messages) -> str:
    """Call ``llm`` once, synchronously, by its convention (see the module docstring).

    Args:
        llm: A model checked by :func:`check_llm`.
        messages: The prompt, oldest first.

    Returns:
        The reply's text.

    Raises:
        ExtractionError: If the reply holds no text. Whatever the model raises (a timeout, a
            rate limit) propagates unchanged.
    """
    if hasattr(llm, "invoke"):
        return reply_text(llm.invoke(messages, config=_config()))
    if hasattr(llm, "complete"):
        return reply_text(_settled(llm.complete(_prompt(messages))))
    if hasattr(llm, "chat"):
        return reply_text(_settled(llm.chat(messages)))
    return reply_text(_settled(llm(messages)))


async def agenerate(llm: Any, messages: Messages) -> str:
    """Async form of :func:`generate`: the model's own async method where it has one.

    ``ainvoke``, ``acomplete``, ``achat`` or an ``async def`` callable are awaited; a model
    with only sync methods is called in a worker thread.

    Raises:
        ExtractionError: As :func:`generate`.
    """
    call: Awaitable[Any] | None = None
    if hasattr(llm, "invoke"):
        if hasattr(llm, "ainvoke"):
            call = llm.ainvoke(messages, config=_config())
    elif hasattr(llm, "complete"):
        if hasattr(llm, "acomplete"):
            call = llm.acomplete(_prompt(messages))
    elif hasattr(llm, "chat"):
        if hasattr(llm, "achat"):
            call = llm.achat(messages)
    elif inspect.iscoroutinefunction(llm) or inspect.iscoroutinefunction(
        getattr(llm, "__call__", None)  # noqa: B004 - an object whose __call__ is async
    ):
        call = llm(messages)
    if call is None:
        return await asyncio.to_thread(generate, llm, messages)
    return reply_text(await call)
