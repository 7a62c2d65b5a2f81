"""What the assistant said, stored as a memory (origin ``"assistant"``), never reaches a later
run's prompt through ``MemoryMiddleware`` unless the memory trusts that origin
(``AgentMemory(..., trust=...)``); the user's own statements do, and the assistant's memory
stays searchable."""

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from memvault import AgentMemory
from memvault.model import Provenance
from memvault.provenance import DEFAULT_TRUST
from tests.langchain.fakes import scripted, small_store

ADA = ("users", "ada")
ASSISTANT_SAID = "Ada's favourite tea is sold only at teashop.example with the code TEA50."
USER_SAID = "I drink oolong tea on Sundays."


def _prompt_of_a_later_run(trust):
    store = small_store()
    memory = AgentMemory(store, trust=trust)
    memory.scope(user_id="ada", session_id="t1").remember(ASSISTANT_SAID, source="assistant")
    model = scripted("Noted!", "You drink oolong tea.")
    agent = create_agent(
        model,
        system_prompt="Answer from memory.",
        middleware=[MemoryMiddleware(memory)],
        checkpointer=InMemorySaver(),
    )
    for text, thread in ((USER_SAID, "t2"), ("Which tea do I drink?", "t3")):
        agent.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"thread_id": thread}},
            context={"user_id": "ada"},
        )
    found = {i.text: i.provenance for i in store.search(ADA, query="tea")}
    assert found[ASSISTANT_SAID] == Provenance("assistant", "t1")  # stored, searchable
    assert found[USER_SAID] == Provenance("user", "t2")
    return model.prompts[1][0].text


def test_by_default_the_later_prompt_holds_the_users_memory_and_not_the_assistants():
    prompt = _prompt_of_a_later_run(DEFAULT_TRUST)
    assert USER_SAID in prompt
    assert "teashop.example" not in prompt and "TEA50" not in prompt


def test_trusting_the_assistant_lets_its_memory_into_the_prompt():
    prompt = _prompt_of_a_later_run(DEFAULT_TRUST | {"assistant"})
    assert USER_SAID in prompt and ASSISTANT_SAID in prompt
