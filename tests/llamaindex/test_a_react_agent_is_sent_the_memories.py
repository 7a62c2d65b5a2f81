"""A ReActAgent's model is sent the recalled memories.

``ReActAgent`` drops the first system message of its input (it writes its own ReAct header), and
without a ``system_prompt`` that message is the one ``Memory`` put the memories in; so a ReAct
agent without one takes ``insert_method="user"`` (the memories go into the latest user message).
"""

import pytest
from llama_index.core.agent.workflow import ReActAgent
from llama_index.memory.memvault import memvault_memory

ANSWER = "Thought: I can answer without using any more tools.\nAnswer: Noted."


async def _run(agent_options, llm, memory, said):
    agent = ReActAgent(tools=[], llm=llm, **agent_options)
    return await agent.run(said, memory=memory)


@pytest.mark.parametrize(
    ("agent_options", "memory_options"),
    [({}, {"insert_method": "user"}), ({"system_prompt": "You are a helpful assistant."}, {})],
    ids=["no-system-prompt-user-insert", "system-prompt-default-insert"],
)
async def test_what_was_said_in_an_earlier_session_reaches_the_model(
    store, recording_llm, agent_options, memory_options
):
    first = memvault_memory(store, user_id="alice", session_id="s1", **memory_options)
    reply = await _run(agent_options, recording_llm(reply=ANSWER), first, "I live in Porto.")
    assert str(reply) == "Noted."

    llm = recording_llm(reply=ANSWER)
    second = memvault_memory(store, user_id="alice", session_id="s2", **memory_options)
    await _run(agent_options, llm, second, "Where do I live?")

    (prompt,) = llm.prompts
    assert '{"text": "I live in Porto."' in prompt
    assert prompt.index("<memvault>") < prompt.rindex("Where do I live?")
