"""Async twins: the ``a``-prefixed form of a sync method, run in a worker thread."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

S = TypeVar("S")
P = ParamSpec("P")
T = TypeVar("T")


def async_twin(
    method: Callable[Concatenate[S, P], T],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """Make the async twin of a sync method: the same call, run in a worker thread.

    The twin is named ``a<name>``, has the method's signature (for :func:`inspect.signature`,
    mypy and editors: ``ParamSpec``, PEP 612) and is documented as having the same arguments,
    result and errors; the event loop never blocks on the sync body (``asyncio.to_thread``).

    Args:
        method: A sync method (a function taking ``self`` first).

    Returns:
        An ``async def`` method with the same parameters, whose coroutine returns what
        ``method`` returns.
    """

    @functools.wraps(method)
    async def twin(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(method, self, *args, **kwargs)

    twin.__name__ = twin.__qualname__ = f"a{method.__name__}"
    twin.__doc__ = (
        f"Async form of :meth:`{method.__name__}`: the same arguments, result and errors; the "
        "work runs in a worker thread so the event loop never blocks.\n"
    )
    return twin
