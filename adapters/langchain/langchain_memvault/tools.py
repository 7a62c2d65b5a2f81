"""Memory tools for LangChain agents: remember, recall, forget and list_memories.

Each tool is a :class:`MemoryTool` driven by one of the core's
:data:`memvault.memory_tools.MEMORY_TOOLS` specs (name, description, argument schema) and run by
:func:`memvault.memory_tools.run_memory_tool`, so both frameworks offer the same tools with the same
arguments: ``remember(text, replaces=None)`` (``replaces``: the id of the memory this one
corrects, which is closed rather than overwritten), ``recall(query, limit=5, as_of=None)``
(``as_of``: an ISO 8601 date, to recall what held then), ``forget(memory, erase=False)`` (an
id or a description; ``erase`` removes the text everywhere, for privacy) and
``list_memories(limit=20, offset=0)``.

The namespace of every call comes from the run (see :mod:`langchain_memvault.run_scope`), never
from an argument the model fills, so a model cannot reach another user's memories, and a run
without the user id fails with :class:`memvault.errors.InvalidNamespaceError` instead of
falling back to a shared namespace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import ConfigDict, InstanceOf

from langchain_memvault.run_scope import run_scope
from memvault import AgentMemory, InvalidArgumentError, MemoryStore
from memvault.arguments import NOT_GIVEN
from memvault.memory_tools import (
    MEMORY_TOOLS,
    MemoryToolSpec,
    arun_memory_tool,
    check_prefix,
    run_memory_tool,
    tool_spec,
)


def _is_scalar(value: Any) -> bool:
    """Whether a tool argument is a JSON scalar LangChain can print (an int within 64 bits)."""
    if type(value) is int:
        return -(2**63) <= value < 2**63
    return value is None or type(value) in (str, float, bool)


class MemoryTool(BaseTool):
    """One memory tool over an :class:`~memvault.AgentMemory`, as a LangChain ``BaseTool``.

    Its name is ``spec.named(prefix)``, its description ``spec.description_for(memory.name)``
    and its arguments ``spec.args_schema``; a call resolves the memory for the run
    (:func:`~langchain_memvault.run_scope.run_scope`) and returns the text of
    :func:`memvault.memory_tools.run_memory_tool`.

    Args:
        spec: The :class:`memvault.memory_tools.MemoryToolSpec` (the named subclasses set it).
        memory: The :class:`memvault.AgentMemory` (namespace template, ttl, name).
        store: Instead of ``memory``: a :class:`memvault.MemoryStore`, wrapped as
            ``AgentMemory(store, namespace, ttl=ttl)``.
        namespace: With ``store``: the namespace template, default ``("users", "{user_id}")``.
        ttl: With ``store``: seconds until remembered memories expire; ``None`` never; default
            the store's.
        prefix: Put before the tool's name, e.g. ``"org_"`` for ``org_remember``, so two tool
            sets can serve one agent; letters, digits, ``_`` and ``-`` only.
        **fields: Other ``BaseTool`` fields (``name``, ``description``, ``return_direct``...).

    A call's arguments are validated by LangChain against ``args_schema`` first (LangChain
    owns the tool's schema), so arguments of the wrong type or out of range raise
    ``pydantic.ValidationError`` from ``invoke``; everything after that (a blank text, the
    run's namespace, the store) raises a :class:`memvault.MemvaultError`. A string input
    (``remember.invoke("I like tea")``) is the first argument.

    Raises:
        memvault.InvalidArgumentError: If neither or both of ``memory`` and ``store`` are
            given, ``namespace`` or ``ttl`` come with a ``memory``, there is no ``spec``, or the
            prefix has other characters; during a call, on arguments memvault rejects (a blank
            text).
        pydantic.ValidationError: From ``invoke``, on arguments the tool's schema rejects.
        memvault.errors.InvalidNamespaceError: If ``namespace`` is not a tuple of strings; during a
            call, if the run lacks a value the template needs.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    default_spec: ClassVar[MemoryToolSpec | None] = None
    """The spec a named subclass runs when none is given."""

    memory: InstanceOf[AgentMemory]
    spec: InstanceOf[MemoryToolSpec]
    prefix: str = ""

    def __init__(
        self,
        *,
        spec: MemoryToolSpec | None = None,
        memory: AgentMemory | None = None,
        store: MemoryStore | None = None,
        namespace: Sequence[str] = NOT_GIVEN,
        ttl: Any = NOT_GIVEN,
        prefix: str = "",
        **fields: Any,
    ) -> None:
        spec = spec or self.default_spec
        if not isinstance(spec, MemoryToolSpec):
            raise InvalidArgumentError(
                f"spec must be one of memvault.memory_tools.MEMORY_TOOLS, got {type(spec).__name__}"
            )
        if (memory is None) == (store is None):
            raise InvalidArgumentError("give a memory tool either memory=... or store=...")
        check_prefix(prefix)
        source = memory if memory is not None else store
        assert source is not None  # exactly one of them is given (checked above)
        memory = AgentMemory.of(source, namespace=namespace, ttl=ttl)
        fields.setdefault("name", spec.named(prefix))
        fields.setdefault("description", spec.description_for(memory.name))
        fields.setdefault("args_schema", spec.args_schema)
        super().__init__(memory=memory, spec=spec, prefix=prefix, **fields)

    def run(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        """``BaseTool.run``, arguments that are not plain JSON scalars checked first.

        LangChain prints a tool's input for its callbacks before it checks the arguments, which
        a list nested 5,000 deep does not survive (``RecursionError``); no memory tool takes a
        list or a dict, so such arguments raise the schema's ``pydantic.ValidationError`` here,
        as an argument of any other wrong type does a step later.

        Raises:
            pydantic.ValidationError: On such arguments; else as ``BaseTool.run`` raises.
        """
        self._check_unprintable(tool_input)
        return super().run(tool_input, *args, **kwargs)

    async def arun(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        """Async form of :meth:`run`: the same arguments, result and errors."""
        self._check_unprintable(tool_input)
        return await super().arun(tool_input, *args, **kwargs)

    def _check_unprintable(self, tool_input: Any) -> None:
        if isinstance(tool_input, dict) and not all(map(_is_scalar, tool_input.values())):
            self.spec.args_schema.model_validate(tool_input)

    def _arguments(self, given: tuple[Any, ...], arguments: dict[str, Any]) -> dict[str, Any]:
        """The call's arguments by name.

        A string input (``tool.invoke("...")``, which LangChain passes positionally) is the
        schema's first argument.
        """
        if given:
            first = next(iter(self.spec.args_schema.model_fields))
            return {first: given[0], **arguments}
        return arguments

    def _run(
        self,
        *given: Any,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> str:
        scope = run_scope(self.memory, config)
        return run_memory_tool(scope, self.spec.name, self._arguments(given, arguments))

    async def _arun(
        self,
        *given: Any,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> str:
        scope = run_scope(self.memory, config)
        return await arun_memory_tool(scope, self.spec.name, self._arguments(given, arguments))


class RememberTool(MemoryTool):
    """``remember(text, replaces=None)``: store one fact, or one correcting memory ``replaces``."""

    default_spec: ClassVar[MemoryToolSpec | None] = tool_spec("remember")


class RecallTool(MemoryTool):
    """``recall(query, limit=5, as_of=None)``: memories for a query (held at ``as_of``), fenced."""

    default_spec: ClassVar[MemoryToolSpec | None] = tool_spec("recall")


class ForgetTool(MemoryTool):
    """``forget(memory, erase=False)``: remove a memory by id or description, with its sources."""

    default_spec: ClassVar[MemoryToolSpec | None] = tool_spec("forget")


class ListMemoriesTool(MemoryTool):
    """``list_memories(limit=20, offset=0)``: the memories in scope, newest first."""

    default_spec: ClassVar[MemoryToolSpec | None] = tool_spec("list_memories")


_NAMED: dict[str, type[MemoryTool]] = {
    tool.default_spec.name: tool
    for tool in (RememberTool, RecallTool, ForgetTool, ListMemoriesTool)
    if tool.default_spec is not None
}


def create_memory_tools(
    memory_or_store: AgentMemory | MemoryStore,
    namespace: Sequence[str] = NOT_GIVEN,
    *,
    prefix: str = "",
    ttl: Any = NOT_GIVEN,
) -> list[MemoryTool]:
    """Build the remember, recall, forget and list_memories tools over one memory.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped as ``AgentMemory(store, namespace, ttl=ttl)``.
        namespace: With a store: the namespace template, default ``("users", "{user_id}")``,
            resolved per call from the run: the agent's runtime context
            (``create_agent(..., context_schema=...)``), else ``configurable``
            (``config={"configurable": {"user_id": "alice"}}``), and the thread id.
        prefix: Put before every tool name, e.g. ``"org_"`` gives ``org_remember``,
            ``org_recall``, ...; lets a second tool set (an organisation's memory) serve the
            same agent.
        ttl: With a store: seconds until remembered facts expire; ``None`` never; default
            the store's.

    Returns:
        ``[RememberTool, RecallTool, ForgetTool, ListMemoriesTool]`` instances.

    Raises:
        memvault.InvalidArgumentError: If ``memory_or_store`` is neither, ``namespace`` or
            ``ttl`` come with an AgentMemory, or the prefix has characters other than letters,
            digits, ``_`` and ``-``.
        memvault.errors.InvalidNamespaceError: If ``namespace`` is not a tuple of strings; and from
            each call, if the run lacks a value the template needs.

    Example:
        >>> tools = create_memory_tools(store, ("users", "{user_id}"))  # doctest: +SKIP
        >>> org = create_memory_tools(store, ("orgs", "{org_id}"), prefix="org_")  # doctest: +SKIP
        >>> agent = create_agent(model, tools + org, context_schema=Context)  # doctest: +SKIP
    """
    memory = AgentMemory.of(memory_or_store, namespace=namespace, ttl=ttl)
    return [
        _NAMED.get(spec.name, MemoryTool)(spec=spec, memory=memory, prefix=prefix)
        for spec in MEMORY_TOOLS
    ]
