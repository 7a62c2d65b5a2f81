"""One agent, built once with one MemvaultToolSpec, writes each run's facts for that run's user."""

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.memory import Memory
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory


def _memory(store, user_id, session_id):
    # No write-through: whatever reaches the store was written by the remember tool.
    return memvault_memory(store, user_id=user_id, session_id=session_id, write_through=False)


async def test_bobs_fact_goes_to_bobs_namespace_not_alices(store, scripted_agent_llm):
    agent = FunctionAgent(tools=MemvaultToolSpec(store).to_tool_list(), llm=scripted_agent_llm())

    await agent.run("Remember the user drinks green tea", memory=_memory(store, "alice", "s-a"))
    await agent.run("Remember the user plays chess", memory=_memory(store, "bob", "s-b"))

    alice = store.search(("users", "alice"))
    bob = store.search(("users", "bob"))
    assert [(i.text, i.value["kind"], i.value["session_id"]) for i in alice] == [
        ("the user drinks green tea", "fact", "s-a")
    ]
    assert [(i.text, i.value["kind"], i.value["session_id"]) for i in bob] == [
        ("the user plays chess", "fact", "s-b")
    ]


async def test_the_runs_user_wins_over_the_constructors(store, scripted_agent_llm):
    tools = MemvaultToolSpec(store, user_id="alice").to_tool_list()
    agent = FunctionAgent(tools=tools, llm=scripted_agent_llm())

    await agent.run("Remember the user plays chess", memory=_memory(store, "bob", "s-b"))

    assert store.count(("users", "alice")) == 0
    assert [item.text for item in store.search(("users", "bob"))] == ["the user plays chess"]


async def test_a_run_without_a_user_fails_closed(store, scripted_agent_llm):
    llm = scripted_agent_llm()
    agent = FunctionAgent(tools=MemvaultToolSpec(store).to_tool_list(), llm=llm)

    await agent.run("Remember the user plays chess", memory=Memory.from_defaults(session_id="s"))

    assert store.count() == 0
    assert "needs 'user_id'" in llm.seen[-1]  # the tool's error is what the model read back
