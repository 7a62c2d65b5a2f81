"""Memory tools for LangChain agents: remember, recall, forget and list.

The namespace of every call comes from the run (see :mod:`langchain_memvault.run_scope`), never
from an argument the model fills, so a model cannot reach another user's memories, and a run
without the user id fails with :class:`memvault.InvalidNamespaceError` instead of falling back
to a shared namespace.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field, field_validator

from langchain_memvault.run_scope import run_values
from memvault import NOT_GIVEN, MemoryItem, MemoryStore, fact_key, resolve_namespace
from memvault.namespace import Namespace, validate_namespace


class RememberInput(BaseModel):
    """Arguments of :class:`RememberTool`."""

    text: str = Field(
        min_length=1,
        description="One short, self-contained fact to remember, e.g. 'The user is vegetarian.'",
    )


class RecallInput(BaseModel):
    """Arguments of :class:`RecallTool`."""

    query: str = Field(min_length=1, description="What to look for, in natural language.")
    k: int = Field(default=5, ge=1, le=50, description="Most memories to return.")


class ForgetInput(BaseModel):
    """Arguments of :class:`ForgetTool`."""

    key: str = Field(min_length=1, description="Key of the memory, as recall or list show it.")


class ListMemoriesInput(BaseModel):
    """Arguments of :class:`ListMemoriesTool`."""

    limit: int = Field(default=20, ge=1, le=100, description="Most memories to list.")
    offset: int = Field(default=0, ge=0, description="Memories to skip first.")


def _render(items: list[MemoryItem]) -> str:
    if not items:
        return "No memories found."
    rows = [
        {"key": i.key, "text": i.text}
        | ({"score": round(i.score, 3)} if i.score is not None else {})
        for i in items
    ]
    return json.dumps(rows, ensure_ascii=False)


class MemoryTool(BaseTool):
    """Base of the memory tools: a memvault store and the namespace template calls resolve.

    Attributes:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace template, e.g. ``("users", "{user_id}")``, filled per call from
            the run's context and ``configurable`` (see :func:`memvault.resolve_namespace`).
        ttl: Seconds until remembered items expire; ``None`` never; default the store's.

    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: MemoryStore
    namespace: Namespace
    ttl: Any = NOT_GIVEN

    @field_validator("namespace", mode="before")
    @classmethod
    def _check_namespace(cls, namespace: Any) -> Namespace:
        return validate_namespace(namespace)

    def resolve(self, config: RunnableConfig | None) -> Namespace:
        """Resolve the namespace for this run.

        Raises:
            memvault.InvalidNamespaceError: If the run lacks a value the template needs.

        """
        return resolve_namespace(self.namespace, run_values(config))

    async def _arun(self, *args: Any, config: RunnableConfig, **kwargs: Any) -> str:
        return await asyncio.to_thread(self._run, *args, config=config, **kwargs)


class RememberTool(MemoryTool):
    """Store one fact in the user's memory (key: :func:`memvault.fact_key` of the text).

    A repeated fact updates its memory in place. Value: ``{"text": text, "kind": "fact"}``.
    """

    name: str = "remember"
    description: str = (
        "Save one durable fact about the user to long-term memory so it is known in future "
        "conversations. Use for preferences, biography, plans and corrections."
    )
    args_schema: type[BaseModel] = RememberInput

    def _run(
        self,
        text: str,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> str:
        key = fact_key(text)
        self.store.put(self.resolve(config), key, {"text": text, "kind": "fact"}, ttl=self.ttl)
        return f"Remembered (key {key}): {text}"


class RecallTool(MemoryTool):
    """Search the user's memories; returns JSON ``[{"key", "text", "score"}]``, best first."""

    name: str = "recall"
    description: str = "Search long-term memory about the user for facts relevant to a query."
    args_schema: type[BaseModel] = RecallInput

    def _run(
        self,
        query: str,
        config: RunnableConfig,
        k: int = 5,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> str:
        return _render(self.store.search(self.resolve(config), query=query, limit=k))


class ForgetTool(MemoryTool):
    """Delete one of the user's memories by key."""

    name: str = "forget"
    description: str = (
        "Delete one memory by its key (from recall or list_memories) when the user asks to "
        "forget it or it is wrong."
    )
    args_schema: type[BaseModel] = ForgetInput

    def _run(
        self,
        key: str,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> str:
        namespace = self.resolve(config)
        if self.store.get(namespace, key) is None:
            return f"No memory has key {key}."
        self.store.delete(namespace, key)
        return f"Forgot {key}."


class ListMemoriesTool(MemoryTool):
    """List the user's memories, most recently updated first; JSON ``[{"key", "text"}]``."""

    name: str = "list_memories"
    description: str = "List what long-term memory holds about the user, newest first."
    args_schema: type[BaseModel] = ListMemoriesInput

    def _run(
        self,
        config: RunnableConfig,
        limit: int = 20,
        offset: int = 0,
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> str:
        return _render(self.store.search(self.resolve(config), limit=limit, offset=offset))


def create_memory_tools(
    store: MemoryStore,
    namespace: Namespace = ("users", "{user_id}"),
    *,
    ttl: Any = NOT_GIVEN,
) -> list[MemoryTool]:
    """Build the remember, recall, forget and list_memories tools over one store.

    Args:
        store: The :class:`memvault.MemoryStore`.
        namespace: Namespace template resolved per call from the run: the agent's runtime
            context (``create_agent(..., context_schema=...)``), else ``configurable``
            (``config={"configurable": {"user_id": "alice"}}``), and the thread id.
        ttl: Seconds until remembered facts expire; ``None`` never; default the store's.

    Returns:
        ``[RememberTool, RecallTool, ForgetTool, ListMemoriesTool]`` instances.

    Raises:
        memvault.InvalidNamespaceError: If ``namespace`` is not a tuple of strings; and from
            each call, if the run lacks a value the template needs.

    Example:
        >>> tools = create_memory_tools(store, ("users", "{user_id}"))  # doctest: +SKIP
        >>> agent = create_agent(model, tools, context_schema=Context)  # doctest: +SKIP

    """
    kinds = (RememberTool, RecallTool, ForgetTool, ListMemoriesTool)
    return [kind(store=store, namespace=namespace, ttl=ttl) for kind in kinds]
