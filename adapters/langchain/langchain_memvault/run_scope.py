"""Run scope: which :class:`memvault.AgentMemory` a part uses, and for which run.

Every part of this adapter (tools, middleware, retriever) holds one
:class:`~memvault.AgentMemory`, given directly or built from a store and options by
:meth:`memvault.AgentMemory.of`, and resolves it for each run with :func:`run_scope`.

The values a namespace template such as ``("users", "{user_id}")`` is filled from come from
the run, never from a model's tool arguments: the ``configurable`` entries of the
:class:`~langchain_core.runnables.RunnableConfig`, the fields of LangGraph's runtime context
(``create_agent(..., context_schema=...)`` / ``invoke(..., context=...)``), and the thread id,
which becomes the session id of what is saved. :meth:`memvault.AgentMemory.scope` then fills
the template and raises :class:`memvault.errors.InvalidNamespaceError` when a value is missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig, ensure_config

from memvault import AgentMemory, MemoryScope

_RUNTIME_KEY = "__pregel_runtime"
"""The ``configurable`` entry where LangGraph keeps a run's ``Runtime`` (``get_runtime`` reads
it from the run's config in the context; an explicit config carries it too)."""


def run_scope(
    memory: AgentMemory, config: RunnableConfig | None = None, runtime: Any = None
) -> MemoryScope:
    """Resolve ``memory`` for one run: the namespace from the run's values, the thread as session.

    Args:
        memory: The :class:`~memvault.AgentMemory`.
        config: The run's ``RunnableConfig``; default the config of the run in progress, if
            any (``langchain_core.runnables.ensure_config``).
        runtime: A LangGraph ``Runtime``; default the one in ``config``, else the runtime of the
            graph run in progress.

    Returns:
        The :class:`~memvault.MemoryScope` (see :func:`run_values` for where values come from).

    Raises:
        InvalidNamespaceError: If the run lacks a value the namespace template needs.
    """
    return memory.scope(run_values(ensure_config(config), runtime))


def current_runtime() -> Any:
    """Return the LangGraph ``Runtime`` of the graph run this call is part of, or ``None``.

    Returns ``None`` when LangGraph is not installed or the call is outside a graph run.
    """
    try:
        from langgraph.runtime import get_runtime
    except ImportError:
        return None
    try:
        return get_runtime()
    except (RuntimeError, KeyError):
        return None


def _context_fields(context: Any) -> dict[str, Any]:
    if context is None:
        return {}
    if isinstance(context, Mapping):
        return dict(context)
    if dataclasses.is_dataclass(context) and not isinstance(context, type):
        return {f.name: getattr(context, f.name) for f in dataclasses.fields(context)}
    return dict(getattr(context, "__dict__", {}))


def run_values(config: Mapping[str, Any] | None = None, runtime: Any = None) -> dict[str, Any]:
    """Collect the values a namespace template can use for this run.

    Args:
        config: The run's ``RunnableConfig``; its ``configurable`` entries are used, except
            LangGraph's internal ``__...`` keys (``thread_id``, ``user_id``, ... are kept).
        runtime: A LangGraph ``Runtime`` (as middleware and graph nodes receive it); by
            default the one a graph run's ``config`` carries (as tools receive it), else the
            runtime of the graph run in progress, if any (see :func:`current_runtime`). Pass
            ``config`` or ``runtime`` explicitly in async code: before Python 3.11 the run in
            progress is not visible there.

    Returns:
        A dict of values. Runtime context fields (a dict, dataclass or pydantic model) override
        ``configurable`` entries of the same name; ``thread_id`` is filled from the runtime's
        execution info when ``configurable`` lacks it.

    """
    values: dict[str, Any] = {}
    configurable = (config or {}).get("configurable") or {}
    values.update({k: v for k, v in configurable.items() if not str(k).startswith("__")})
    if runtime is None:
        runtime = configurable.get(_RUNTIME_KEY) or current_runtime()
    values.update(_context_fields(getattr(runtime, "context", None)))
    execution = getattr(runtime, "execution_info", None)
    thread_id = getattr(execution, "thread_id", None)
    if thread_id and not values.get("thread_id"):
        values["thread_id"] = str(thread_id)
    return values
