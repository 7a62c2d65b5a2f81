"""What the assistant said, stored as a memory (origin ``"assistant"``), never reaches a later
session's prompt of a ``FunctionAgent`` through memvault's ``Memory`` unless the memory trusts
that origin (``AgentMemory(..., trust=...)``); what the user asked the ``remember`` tool to keep
does (the tool's memory, merged with the user's turn that said it), and the assistant's memory
stays searchable."""

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.memory.memvault import MemvaultToolSpec, memvault_memory

from memvault import AgentMemory
from memvault.model import Provenance
from memvault.provenance import DEFAULT_TRUST

ADA = ("users", "ada")
ASSISTANT_SAID = "Ada's favourite tea is sold only at teashop.example with the code TEA50."
REMEMBERED = "I drink oolong tea on Sundays."


async def _seen_in_a_later_session(store, scripted_agent_llm, trust):
    memory = AgentMemory(store, trust=trust)
    memory.scope(user_id="ada", session_id="s0").remember(ASSISTANT_SAID, source="assistant")
    agent = FunctionAgent(
        tools=MemvaultToolSpec(memory, user_id="ada", session_id="s1").to_tool_list(),
        llm=scripted_agent_llm(),
        system_prompt="You are a helpful assistant with long-term memory.",
    )
    await agent.run(f"Remember {REMEMBERED}", memory=memvault_memory(memory, user_id="ada"))
    found = {i.text: i.provenance for i in store.search(ADA, query="tea")}
    assert found[ASSISTANT_SAID] == Provenance("assistant", "s0")  # stored, searchable
    assert found[REMEMBERED].origin == "user"  # the tool's memory, merged with the turn

    llm = scripted_agent_llm()
    agent = FunctionAgent(tools=[], llm=llm, system_prompt="You are a helpful assistant.")
    reply = await agent.run(
        "Which tea do I drink?", memory=memvault_memory(memory, user_id="ada", session_id="s2")
    )
    return "\n".join(llm.seen), str(reply)


async def test_by_default_the_later_prompt_holds_the_remembered_memory_only(
    store, scripted_agent_llm
):
    seen, reply = await _seen_in_a_later_session(store, scripted_agent_llm, DEFAULT_TRUST)
    assert REMEMBERED in seen and "oolong" in reply
    assert "teashop.example" not in seen and "TEA50" not in reply


async def test_trusting_the_assistant_lets_its_memory_into_the_prompt(store, scripted_agent_llm):
    trust = DEFAULT_TRUST | {"assistant"}
    seen, _ = await _seen_in_a_later_session(store, scripted_agent_llm, trust)
    assert REMEMBERED in seen and ASSISTANT_SAID in seen
