"""After the forget tool, no memory of the session quotes the forgotten turn (issue 29,
finding 1): the turns saved around it carried it in their contexts, and so did the next turn."""

import json

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory


def _chat(store, llm, session_id):
    return SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="ada", session_id=session_id)
    )


async def test_the_forgotten_turn_is_in_no_memory_and_no_later_prompt(
    store, recording_llm, scripted_agent_llm
):
    session = _chat(store, recording_llm(), "s1")
    await session.achat("I am allergic to peanuts.")
    await session.achat("My sister is called Ana.")
    agent = FunctionAgent(tools=MemvaultToolSpec(store).to_tool_list(), llm=scripted_agent_llm())
    reply = await agent.run(
        "Forget that I am allergic to peanuts",
        memory=memvault_memory(store, user_id="ada", session_id="s1"),
    )
    assert str(reply) == "Done."
    await session.achat("I work as a nurse.")

    stored = store.search(("users", "ada"))
    assert sorted(item.text for item in stored) == [
        "I work as a nurse.",
        "My sister is called Ana.",
    ]
    assert all("peanuts" not in json.dumps(item.value) for item in stored)
    llm = recording_llm()
    await _chat(store, llm, "s2").achat("Do I have any allergies?")
    assert "peanuts" not in "\n".join(llm.prompts)
