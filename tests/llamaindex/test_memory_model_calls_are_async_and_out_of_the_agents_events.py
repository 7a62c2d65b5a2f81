"""Behind a LlamaIndex agent, memvault's extraction and reconciliation await the LLM's own
``acomplete`` and add no event to the stream of the user's workflow handler."""

import json
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import CompletionResponse
from llama_index.core.bridge.pydantic import Field
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.llms.mock import MockLLM
from llama_index.memory.memvault import memvault_memory

from memvault import FactExtractor, Reconciler

MEMORY_REPLIES = [
    json.dumps({"facts": ["The user lives in Lisbon."]}),
    json.dumps({"facts": ["The user moved to Porto."]}),
    json.dumps(
        {"decisions": [{"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}]}
    ),
]


class MemoryLLM(MockLLM):
    """Replies from a script; ``methods`` records which entry point each call came through."""

    replies: list[str] = Field(default_factory=list)
    methods: list[str] = Field(default_factory=list)

    def __init__(self, replies: list[str]) -> None:
        super().__init__()
        self.replies = replies

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.methods.append("complete")
        return CompletionResponse(text=self.replies.pop(0))

    @llm_completion_callback()
    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        self.methods.append("acomplete")
        return CompletionResponse(text=self.replies.pop(0))


async def test_an_agent_turn_awaits_acomplete_and_streams_no_memory_event(
    store, scripted_agent_llm
):
    llm = MemoryLLM(list(MEMORY_REPLIES))
    memory = memvault_memory(
        store, user_id="alice", extractor=FactExtractor(llm), reconciler=Reconciler(llm)
    )
    agent = FunctionAgent(tools=[], llm=scripted_agent_llm(), system_prompt="Be brief.")
    await agent.run("I live in Lisbon.", memory=memory)

    handler = agent.run("I moved to Porto.", memory=memory)
    events = [event async for event in handler.stream_events()]
    await handler

    streamed = " ".join(repr(event) for event in events)
    assert '"facts"' not in streamed and '"decisions"' not in streamed
    assert llm.methods == ["acomplete", "acomplete", "acomplete"]
    assert [item.text for item in store.search(("users", "alice"))] == ["The user lives in Porto."]
