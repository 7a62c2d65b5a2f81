"""Work written once, run sync or async: store steps between the model calls they need.

A pipeline is a generator. Its body does the store work (plain sync code: plan what to ask,
apply what was answered) and yields a :class:`ModelCall` wherever it needs the model; the
reply is sent back in as the value of the ``yield``, and an exception the call raised is
raised there, where the body catches what it falls back from. Two drivers run one:

- :func:`run` calls each model call's sync form, in the caller's thread;
- :func:`arun` awaits each call's async form on the event loop (the model's own async method,
  see :mod:`memvault.llm`) and runs the store work between them in a worker thread, so the
  loop never blocks.

So a turn's rules (which call, which fallback, what is written) are in one body, and the sync
and async doors differ only in how a call is made.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class ModelCall:
    """One model call a pipeline needs, in both forms.

    Attributes:
        sync: The sync form, e.g. ``extractor.extract``.
        asynchronous: The async form, e.g. ``extractor.aextract``.
        args: The arguments both take.
    """

    sync: Callable[..., Any]
    asynchronous: Callable[..., Awaitable[Any]]
    args: tuple[Any, ...]

    def call(self) -> _Reply:
        """Make the call in this thread."""
        try:
            return _Reply(self.sync(*self.args))
        except Exception as failure:  # raised in the pipeline, which catches what it expects
            return _Reply(failure=failure)

    async def acall(self) -> _Reply:
        """Await the call's async form."""
        try:
            return _Reply(await self.asynchronous(*self.args))
        except Exception as failure:
            return _Reply(failure=failure)


@dataclass(frozen=True)
class _Reply:
    """What a model call gave: its value, or the exception it raised."""

    value: Any = None
    failure: Exception | None = None


Pipeline = Generator[ModelCall, Any, T]
"""A pipeline returning ``T``: yields model calls, is sent their replies."""


def run(pipeline: Pipeline[T]) -> T:
    """Run a pipeline in this thread, calling each model call's sync form.

    Args:
        pipeline: A fresh pipeline.

    Returns:
        What it returns.

    Raises:
        Exception: What the pipeline raises (a model call's exception it does not catch too).
    """
    step = _advance(pipeline, _Reply())
    while isinstance(step, ModelCall):
        step = _advance(pipeline, step.call())
    return step.value


async def arun(pipeline: Pipeline[T]) -> T:
    """Run a pipeline, awaiting each model call's async form; the store work runs in a thread.

    Args:
        pipeline: A fresh pipeline.

    Returns:
        What it returns.

    Raises:
        Exception: As :func:`run`.
    """
    step = await asyncio.to_thread(_advance, pipeline, _Reply())
    while isinstance(step, ModelCall):
        step = await asyncio.to_thread(_advance, pipeline, await step.acall())
    return step.value


def _advance(pipeline: Pipeline[T], reply: _Reply) -> ModelCall | _Reply:
    """Run the pipeline's store work up to its next model call (or its end), given a reply.

    Returns:
        The next call, or the pipeline's result as a reply (a ``StopIteration`` cannot cross
        a thread's future, so the end is returned, not raised).
    """
    try:
        if reply.failure is not None:
            return pipeline.throw(reply.failure)
        return pipeline.send(reply.value)
    except StopIteration as end:
        return _Reply(end.value)
