"""Test doubles shared by the LangChain adapter tests: small stores, a scripted chat model and
the Lisbon → Porto move."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import Field

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore


def small_store(path: Path | None = None, **options) -> MemoryStore:
    """A store with the deterministic hashing embedder: in memory, or Chroma at ``path``."""
    if path is None:
        return MemoryStore(embedder=HashingEmbedder(64), backend=InMemoryBackend(), **options)
    return MemoryStore(path, embedder=HashingEmbedder(64), **options)


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that replies from a script, accepts tools and records every prompt."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def scripted(*replies: AIMessage | str) -> ScriptedChatModel:
    """A :class:`ScriptedChatModel` that answers with ``replies`` in order."""
    return ScriptedChatModel(messages=iter(replies))


def call(name: str, call_id: str, **args: Any) -> AIMessage:
    """An AI message that calls one tool."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


# The Lisbon -> Porto case of issue 26: Lisbon from March 2023, Porto from June; April between.
MARCH = datetime(2023, 3, 1, tzinfo=timezone.utc)
APRIL = datetime(2023, 4, 15, tzinfo=timezone.utc)
JUNE = datetime(2023, 6, 2, tzinfo=timezone.utc)


def moved_from_lisbon_to_porto(store: MemoryStore, namespace: tuple[str, ...]) -> None:
    """Store "I live in Lisbon." (key ``lisbon``, from :data:`MARCH`), then "I moved to Porto."
    (key ``porto``, from :data:`JUNE`), which supersedes it: Lisbon holds until June."""
    store.put(namespace, "lisbon", {"text": "I live in Lisbon."}, valid_from=MARCH)
    store.put(namespace, "porto", {"text": "I moved to Porto."}, valid_from=JUNE)
    store.supersede(namespace, "lisbon", by="porto")
