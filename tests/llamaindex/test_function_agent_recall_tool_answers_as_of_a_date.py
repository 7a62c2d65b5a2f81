"""A FunctionAgent's ``recall`` with ``as_of`` reads what held then; without, what holds now."""

from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.memory.memvault import MemvaultToolSpec

from tests.llamaindex.moves import moved_from_lisbon_to_porto

CALLS = [
    {"query": "Where did I live?", "as_of": "2023-04-15"},
    {"query": "Where do I live?"},
]


def scripted_recalls(messages, **kwargs):
    """Call ``recall`` with each of :data:`CALLS` in turn, then answer."""
    done = sum(message.role == MessageRole.TOOL for message in messages)
    if done < len(CALLS):
        call = ToolCallBlock(tool_call_id=f"c{done}", tool_name="recall", tool_kwargs=CALLS[done])
        return ChatMessage(role="assistant", blocks=[call])
    return ChatMessage(role="assistant", content="Lisbon in April 2023; Porto now.")


async def test_recall_with_as_of_returns_lisbon_and_without_porto(store):
    moved_from_lisbon_to_porto(store, ("users", "alice"))
    llm = MockFunctionCallingLLM(response_generator=scripted_recalls)
    agent = FunctionAgent(tools=MemvaultToolSpec(store, user_id="alice").to_tool_list(), llm=llm)

    handler = agent.run("Where did I live in mid-April 2023, and where now?")
    results = [
        str(event.tool_output.content)
        async for event in handler.stream_events()
        if isinstance(event, ToolCallResult)
    ]
    reply = await handler

    then, now = results
    assert "I live in Lisbon." in then and "Porto" not in then
    assert "I moved to Porto." in now and "Lisbon" not in now
    assert str(reply) == "Lisbon in April 2023; Porto now."
