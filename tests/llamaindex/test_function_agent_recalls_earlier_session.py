from llama_index.core.agent.workflow import FunctionAgent
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory


def _agent(store, llm, user_id):
    return FunctionAgent(
        tools=MemvaultToolSpec(store, user_id=user_id).to_tool_list(),
        llm=llm,
        system_prompt="You are a helpful assistant with long-term memory.",
    )


async def test_a_fact_saved_with_the_remember_tool_reaches_the_next_session(
    open_disk_store, scripted_agent_llm
):
    store = open_disk_store()
    llm = scripted_agent_llm()
    memory = memvault_memory(store, user_id="alice", session_id="s1")
    reply = await _agent(store, llm, "alice").run(
        "Remember the user is allergic to peanuts", memory=memory
    )
    assert str(reply) == "Done."
    store.close()

    store = open_disk_store()
    llm = scripted_agent_llm()
    memory = memvault_memory(store, user_id="alice", session_id="s2")
    reply = await _agent(store, llm, "alice").run("Which nuts am I allergic to?", memory=memory)

    # The tool's fact and the user's statement written through say the same: one memory.
    assert store.count(("users", "alice")) == 1
    assert llm.seen[0].count('{"text": "The user is allergic to peanuts"') == 1
    assert "The user is allergic to peanuts" in str(reply)


async def test_another_user_never_sees_them(open_disk_store, scripted_agent_llm):
    store = open_disk_store()
    memory = memvault_memory(store, user_id="alice", session_id="s1")
    await _agent(store, scripted_agent_llm(), "alice").run(
        "Remember the user is allergic to peanuts", memory=memory
    )
    store.close()

    store = open_disk_store()
    llm = scripted_agent_llm()
    memory = memvault_memory(store, user_id="bob", session_id="s2")
    reply = await _agent(store, llm, "bob").run("Which nuts am I allergic to?", memory=memory)

    assert all("peanuts" not in seen for seen in llm.seen)
    assert str(reply) == "I don't know."
