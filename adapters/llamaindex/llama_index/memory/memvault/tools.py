"""Agent tools over memvault: remember, recall, forget, list_memories.

No ``from __future__ import annotations`` here: LlamaIndex finds the ``ctx: Context`` parameter
of a tool function by comparing its annotation with the ``Context`` class itself.
"""

from collections.abc import Sequence
from typing import Any

from llama_index.core.async_utils import asyncio_run
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index.core.tools.types import ToolMetadata
from llama_index.core.workflow import Context
from llama_index.memory.memvault.block import MemvaultMemoryBlock

from memvault import AgentMemory, MemoryScope, MemoryStore
from memvault.arguments import NOT_GIVEN
from memvault.memory_tools import (
    MEMORY_TOOLS,
    MemoryToolSpec,
    arun_memory_tool,
    check_prefix,
    run_memory_tool,
    tool_spec,
)
from memvault.namespace import check_template_value


class MemvaultToolSpec(BaseToolSpec):
    """remember / recall / forget / list_memories tools for LlamaIndex agents.

    The tools are :data:`memvault.memory_tools.MEMORY_TOOLS`: the model fills only the
    arguments of each tool's schema (``remember(text, replaces)``, ``recall(query, limit,
    as_of)``, ``forget(memory, erase)``, ``list_memories(limit, offset)``), never a namespace,
    so it cannot reach another user's memories; each call runs
    :func:`memvault.memory_tools.run_memory_tool` (or its async twin) in the run's
    :class:`memvault.MemoryScope`.

    The scope is taken from the run: in an agent workflow (``agent.run(..., memory=memory)``)
    the ids come from the run's ``Memory``: ``user_id`` from its first
    :class:`~llama_index.memory.memvault.MemvaultMemoryBlock` whose memory has the same
    namespace template, ``session_id`` from ``memory.session_id``. Ids the run does not give
    come from this constructor, so one agent built once serves every user, and direct calls
    (``tool.call(text=...)``) use the constructor's ids. A template id given by neither fails
    the call with :class:`memvault.errors.InvalidNamespaceError` rather than reach a shared
    namespace.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped in one with ``namespace``.
        user_id: Fills ``{user_id}`` when the run gives none.
        session_id: Fills ``{session_id}`` (and is recorded on memories) when the run gives
            none.
        namespace: Namespace template (store only); default ``("users", "{user_id}")``.
        prefix: Put before every tool name, e.g. ``"org_"`` gives ``org_remember``, so that
            the tools of two memories can serve one agent; letters, digits, ``_`` and ``-``
            only (:func:`memvault.memory_tools.check_prefix`).

    Every bad input raises a :class:`memvault.MemvaultError`, arguments a model got wrong
    included (:class:`memvault.InvalidArgumentError` naming the argument: the tools validate
    their arguments themselves with the schema LlamaIndex is shown).

    Raises:
        InvalidArgumentError: If ``memory_or_store`` is neither kind, ``namespace`` is given
            with an ``AgentMemory``, or ``prefix`` has characters other than letters, digits,
            ``_`` and ``-``.
        InvalidNamespaceError: If ``namespace`` is not a tuple of strings, or ``user_id`` or
            ``session_id`` is given but is not a non-empty str.
    """

    spec_functions = [spec.name for spec in MEMORY_TOOLS]

    def __init__(
        self,
        memory_or_store: AgentMemory | MemoryStore,
        *,
        user_id: str | None = None,
        session_id: str | None = None,
        namespace: Sequence[str] = NOT_GIVEN,
        prefix: str = "",
    ) -> None:
        self.prefix = check_prefix(prefix)
        self.memory = AgentMemory.of(memory_or_store, namespace=namespace)
        for name, value in (("user_id", user_id), ("session_id", session_id)):
            if value is not None:  # None: the run gives it
                check_template_value(name, value)
        self.user_id = user_id
        self.session_id = session_id

    async def ascope(self, ctx: Context | None = None) -> MemoryScope:
        """The scope a call runs in: the run's ids, else the constructor's.

        Args:
            ctx: The agent workflow's context, or ``None`` for a direct call.

        Returns:
            The :class:`memvault.MemoryScope`.

        Raises:
            InvalidNamespaceError: If the template needs an id that neither the run nor the
                constructor gives.
        """
        ids = self._own_ids()
        run_memory = None if ctx is None else await ctx.store.get("memory", default=None)
        if run_memory is not None:
            if getattr(run_memory, "session_id", None):
                ids["session_id"] = run_memory.session_id
            block = next(
                (
                    b
                    for b in getattr(run_memory, "memory_blocks", [])
                    if isinstance(b, MemvaultMemoryBlock)
                    and b.memory.namespace == self.memory.namespace
                ),
                None,
            )
            if block is not None and block.user_id is not None:
                ids["user_id"] = block.user_id
        return self.memory.scope(ids)

    def _own_ids(self) -> dict[str, str | None]:
        return {"user_id": self.user_id, "session_id": self.session_id}

    def _tool(self, spec: MemoryToolSpec, metadata: ToolMetadata | None) -> FunctionTool:
        def by_name(given: tuple[Any, ...], arguments: dict[str, Any]) -> dict[str, Any]:
            # A positional argument (tool.call("...")) is the schema's first argument.
            if given:
                return {next(iter(spec.args_schema.model_fields)): given[0], **arguments}
            return arguments

        # LlamaIndex finds the context parameter by comparing its annotation with Context
        # itself, so it cannot say `Context | None`.
        def call(*given: Any, ctx: Context = None, **arguments: Any) -> str:  # type: ignore[assignment]
            # The run's Memory is read through the workflow's async store.
            scope = (
                self.memory.scope(self._own_ids()) if ctx is None else asyncio_run(self.ascope(ctx))
            )
            return run_memory_tool(scope, spec.name, by_name(given, arguments))

        async def acall(*given: Any, ctx: Context = None, **arguments: Any) -> str:  # type: ignore[assignment]
            scope = await self.ascope(ctx)
            return await arun_memory_tool(scope, spec.name, by_name(given, arguments))

        name = spec.named(self.prefix)
        call.__name__, acall.__name__ = name, f"a{name}"
        metadata = metadata or ToolMetadata(
            name=name,
            description=spec.description_for(self.memory.name),
            fn_schema=spec.args_schema,
        )
        # A direct call has no workflow context; an agent's _call_tool passes its own, which
        # overrides this default.
        return FunctionTool(
            fn=call, async_fn=acall, metadata=metadata, partial_params={"ctx": None}
        )

    def to_tool_list(
        self,
        spec_functions: Sequence[str | tuple[str, str]] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """Build the tools (``BaseToolSpec.to_tool_list``).

        Args:
            spec_functions: Base names of the tools to build, in order, e.g. ``["recall"]``;
                default all four, in the order of :data:`memvault.memory_tools.MEMORY_TOOLS`.
                (``BaseToolSpec``'s ``(sync, async)`` name pairs are refused.)
            func_to_metadata_mapping: Tool metadata to use instead of memvault's, by base name.

        Returns:
            The ``FunctionTool`` objects; each takes the workflow ``Context`` when an agent
            calls it, and works without one when called directly.

        Raises:
            InvalidArgumentError: If a name is not a memvault tool.
        """
        mapping = func_to_metadata_mapping or {}
        names = dict.fromkeys(spec_functions or self.spec_functions)
        return [self._tool(spec, mapping.get(spec.name)) for spec in map(tool_spec, names)]
