"""Fixtures for the LlamaIndex adapter: stores, and mock LLMs that record what they are sent."""

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from llama_index.core.base.llms.types import (
    ChatMessage,
    CompletionResponse,
    CompletionResponseGen,
    MessageRole,
    TextBlock,
    ToolCallBlock,
)
from llama_index.core.bridge.pydantic import Field
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore


class RecordingLLM(MockLLM):
    """MockLLM that answers a fixed reply and keeps every prompt it was sent.

    Chat calls reach ``complete`` too (``CustomLLM.chat`` formats the messages into a prompt), so
    ``prompts`` holds everything the model saw, whichever engine called it; streamed calls
    (``stream_complete``, which agents use by default) record the prompt and stream the reply.
    """

    reply: str = "OK."
    prompts: list[str] = Field(default_factory=list)

    def __init__(self, reply: str = "OK.", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reply = reply

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text=self.reply)

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        self.prompts.append(prompt)

        def stream() -> CompletionResponseGen:
            yield CompletionResponse(text=self.reply, delta=self.reply)

        return stream()


def _text(message: ChatMessage) -> str:
    return "\n".join(b.text for b in message.blocks if isinstance(b, TextBlock))


class ScriptedAgentLLM(MockFunctionCallingLLM):
    """Function-calling mock for FunctionAgent, scripted like a small model would behave.

    - A user message starting with "Remember" makes it call the ``remember`` tool with the rest
      of the message, one starting with "Forget" the ``forget`` tool; after the tool result it
      answers "Done.".
    - Any other message gets an answer built from the recalled memories it was sent
      ("I recall: ..."), or "I don't know." when it was sent none.

    ``seen`` keeps the text of every message list it was sent, one string per call (tool
    results included).
    """

    seen: list[str] = Field(default_factory=list)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(response_generator=self._respond, **kwargs)

    def _respond(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.seen.append("\n".join(_text(m) for m in messages))
        if messages[-1].role == MessageRole.TOOL:
            return ChatMessage(role="assistant", content="Done.")
        user = next(_text(m) for m in reversed(messages) if m.role == MessageRole.USER)
        for verb, tool, argument in (
            ("Remember", "remember", "text"),
            ("Forget", "forget", "memory"),
        ):
            if user.startswith(verb):
                call = ToolCallBlock(
                    tool_call_id="call-1",
                    tool_name=tool,
                    tool_kwargs={argument: user.removeprefix(verb).strip(" :,")},
                )
                return ChatMessage(role="assistant", blocks=[call])
        recalled = [
            line
            for m in messages
            if m.role == MessageRole.SYSTEM
            for line in _text(m).split("\n")
            if line.startswith('{"text"')
        ]
        answer = "I recall: " + " | ".join(recalled) if recalled else "I don't know."
        return ChatMessage(role="assistant", content=answer)


@pytest.fixture
def store() -> MemoryStore:
    """An in-memory store with the deterministic test embedder."""
    return MemoryStore(embedder=HashingEmbedder(256), backend=InMemoryBackend())


@pytest.fixture
def open_disk_store(tmp_path: Path) -> Callable[[], MemoryStore]:
    """Open (and reopen) one on-disk Chroma store in a temporary folder."""
    opened: list[MemoryStore] = []

    def open_store() -> MemoryStore:
        store = MemoryStore(tmp_path / "memvault", embedder=HashingEmbedder(256))
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


@pytest.fixture
def recording_llm() -> Callable[..., RecordingLLM]:
    """Build a :class:`RecordingLLM`."""
    return RecordingLLM


@pytest.fixture
def scripted_agent_llm() -> Callable[..., ScriptedAgentLLM]:
    """Build a :class:`ScriptedAgentLLM`."""
    return ScriptedAgentLLM
