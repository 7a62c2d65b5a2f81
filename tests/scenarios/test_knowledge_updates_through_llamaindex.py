"""Every knowledge-update script through a LlamaIndex ``FunctionAgent`` with memvault's tools and
``Memory``: a stale fact is never injected as current, recall ``as_of`` a past date finds what
held then, and an erased memory leaves no text on disk."""

from collections.abc import Sequence
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock, ToolCallBlock
from llama_index.core.bridge.pydantic import Field
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory

from tests.scenarios.knowledge_updates import SCRIPTS, USER, Counts, at, script_ids, start
from tests.scenarios.test_scenarios_through_llamaindex import PlannedLLM


class ToolReadingLLM(PlannedLLM):
    """A :class:`PlannedLLM` that also keeps the tool results of every call, one string each."""

    tool_results: list[str] = Field(default_factory=list)

    def _respond(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.tool_results.append(
            "\n".join(
                block.text
                for message in messages
                if message.role == MessageRole.TOOL
                for block in message.blocks
                if isinstance(block, TextBlock)
            )
        )
        return super()._respond(messages, **kwargs)


def tool_call(name: str, **kwargs: Any) -> ChatMessage:
    return ChatMessage(
        role="assistant",
        blocks=[ToolCallBlock(tool_call_id=name, tool_name=name, tool_kwargs=kwargs)],
    )


def plan(script):
    """The agent model's replies: "Noted." per statement, then the question, as-of and erase."""
    said = [ChatMessage(role="assistant", content="Noted.") for _ in script["said"]]
    ok = ChatMessage(role="assistant", content="OK.")
    if "erase" in script:
        return [*said, tool_call("forget", memory=script["erase"]["memory"], erase=True), ok]
    as_of = script["as_of"]
    return [*said, ok, tool_call("recall", query=as_of["query"], as_of=as_of["at"]), ok]


@pytest.mark.parametrize("script", SCRIPTS, ids=script_ids())
async def test_script(script, tmp_path):
    played = start(script, tmp_path)
    llm = ToolReadingLLM(plan(script))
    agent = FunctionAgent(tools=MemvaultToolSpec(played.memory).to_tool_list(), llm=llm)
    counts = Counts("LlamaIndex FunctionAgent", script)

    async def say(turn, session):
        at(played, turn)
        chat = memvault_memory(played.memory, user_id=USER, session_id=session)
        seen = len(llm.systems)
        await agent.run(turn["text"], memory=chat)
        return llm.systems[seen:], llm.tool_results[seen:]

    for number, turn in enumerate(script["said"]):
        await say(turn, f"said-{number}")
    if "erase" in script:
        played.memory.store.backend.drain()  # the text reaches the vector index's files first
        await say(script["erase"], "erase")
        counts.current(played.memory)
        played.memory.store.close()
        counts.erased(played.folder)
        return
    (system,), _ = await say(script["ask"], "ask")
    counts.asked(system)
    as_of = {**script["ask"], "text": f"What was true on {script['as_of']['at']}?"}
    _, (_, answering) = await say(as_of, "as-of")
    counts.recalled_as_of(answering)
    counts.current(played.memory)
