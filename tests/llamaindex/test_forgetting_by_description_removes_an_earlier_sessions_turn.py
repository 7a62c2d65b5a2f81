"""forget(description) through the tool spec removes what the memory stored earlier."""

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory


def _chat(store, llm, session_id):
    return SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="alice", session_id=session_id)
    )


async def test_the_next_sessions_prompt_lacks_the_forgotten_turn(
    store, recording_llm, scripted_agent_llm
):
    earlier = _chat(store, recording_llm(), "s1")
    await earlier.achat("I am learning Portuguese.")
    await earlier.achat("I live in Porto.")
    assert store.count(("users", "alice")) == 2
    agent = FunctionAgent(tools=MemvaultToolSpec(store).to_tool_list(), llm=scripted_agent_llm())

    reply = await agent.run(
        "Forget that I am learning Portuguese",
        memory=memvault_memory(store, user_id="alice", session_id="s2"),
    )

    assert str(reply) == "Done."
    assert [item.text for item in store.search(("users", "alice"))] == ["I live in Porto."]
    llm = recording_llm()
    await _chat(store, llm, "s3").achat("Which language am I learning in Porto?")
    (prompt,) = llm.prompts
    assert '{"text": "I live in Porto."' in prompt
    assert "Portuguese" not in prompt
