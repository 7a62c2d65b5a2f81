"""Every scenario through LlamaIndex: ``SimpleChatEngine`` sessions, or a ``FunctionAgent`` with
memvault's tools where the scenario calls a tool, each with a memvault ``Memory``."""

from collections.abc import Sequence
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock, ToolCallBlock
from llama_index.core.bridge.pydantic import Field
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory

from tests.scenarios.script import SCENARIOS, Tally, fresh_memory, scenario_ids


class PlannedLLM(MockFunctionCallingLLM):
    """Replies from a plan (a tool call, or "OK."), keeping the system text of every call."""

    plan: list[ChatMessage] = Field(default_factory=list)
    systems: list[str] = Field(default_factory=list)

    def __init__(self, plan: list[ChatMessage]) -> None:
        super().__init__(plan=plan, response_generator=self._respond)

    def _respond(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.systems.append(
            "\n".join(
                block.text
                for message in messages
                if message.role == MessageRole.SYSTEM
                for block in message.blocks
                if isinstance(block, TextBlock)
            )
        )
        return self.plan.pop(0)


def plan(scenario: dict[str, Any]) -> list[ChatMessage]:
    """The model's replies, turn by turn: a tool call first where the turn has one."""
    replies = []
    for number, session in enumerate(scenario["sessions"]):
        for index, turn in enumerate(session["turns"]):
            tool = turn.get("tool")
            if tool:
                call = ToolCallBlock(
                    tool_call_id=f"call-{number}-{index}",
                    tool_name=tool["name"],
                    tool_kwargs=tool["args"],
                )
                replies.append(ChatMessage(role="assistant", blocks=[call]))
            replies.append(ChatMessage(role="assistant", content="OK."))
    return replies


@pytest.mark.parametrize("scenario", SCENARIOS, ids=scenario_ids())
async def test_scenario(scenario):
    memory = fresh_memory()
    llm = PlannedLLM(plan(scenario))
    uses_tools = any(t.get("tool") for s in scenario["sessions"] for t in s["turns"])
    agent = FunctionAgent(tools=MemvaultToolSpec(memory).to_tool_list(), llm=llm)
    tally = Tally("LlamaIndex FunctionAgent" if uses_tools else "LlamaIndex SimpleChatEngine")
    for number, session in enumerate(scenario["sessions"]):
        user = tally.user = session.get("user_id", "alice")
        chat = memvault_memory(memory, user_id=user, session_id=f"{scenario['name']}-{number}")
        engine = SimpleChatEngine.from_defaults(llm=llm, memory=chat)
        for turn in session["turns"]:
            seen = len(llm.systems)
            if uses_tools:
                await agent.run(turn["user"], memory=chat)
            else:
                await engine.achat(turn["user"])
            for call_number, system in enumerate(llm.systems[seen:]):
                tally.prompt(turn, system, first_call=call_number == 0)
                if call_number == 0:
                    tally.tool_called(turn)
        tally.stored(session, [item.text for item in memory.scope(user_id=user).list(1000)])
