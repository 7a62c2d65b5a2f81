"""create_agent + MemoryMiddleware + memory tools over a Chroma store on disk."""

from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_core.messages import SystemMessage
from langchain_memvault import MemoryMiddleware, create_memory_tools
from langgraph.checkpoint.memory import InMemorySaver

from memvault.errors import InvalidNamespaceError
from tests.langchain.fakes import call, scripted, small_store

FACTS = ["Ada is vegetarian.", "Ada lives in Lisbon."]


@dataclass
class Context:
    user_id: str


def agent_for(store, model):
    return create_agent(
        model,
        create_memory_tools(store, ("users", "{user_id}")),
        system_prompt="You are a helpful assistant.",
        middleware=[MemoryMiddleware(store, ("users", "{user_id}"), k=5)],
        context_schema=Context,
        checkpointer=InMemorySaver(),
    )


def system_text(prompt) -> str:
    assert isinstance(prompt[0], SystemMessage)
    return prompt[0].text


def test_session_two_recalls_facts_and_other_user_sees_none(tmp_path):
    store = small_store(tmp_path)
    model = scripted(
        call("remember", "c1", text=FACTS[0]),
        call("remember", "c2", text=FACTS[1]),
        "Noted: vegetarian, in Lisbon.",
    )
    agent_for(store, model).invoke(
        {"messages": [("user", "I'm vegetarian and I live in Lisbon.")]},
        {"configurable": {"thread_id": "A"}},
        context=Context(user_id="ada"),
    )
    store.close()

    reopened = small_store(tmp_path)
    model = scripted("You are vegetarian and live in Lisbon.")
    answer = agent_for(reopened, model).invoke(
        {"messages": [("user", "Where do I live and what do I eat?")]},
        {"configurable": {"thread_id": "B"}},
        context=Context(user_id="ada"),
    )
    assert answer["messages"][-1].text == "You are vegetarian and live in Lisbon."
    prompt = system_text(model.prompts[0])
    assert prompt.startswith("You are a helpful assistant.")
    assert "```memories" in prompt
    for fact in FACTS:
        assert fact in prompt
    assert "I'm vegetarian and I live in Lisbon." in prompt  # the raw turn, saved after session 1
    assert len(model.prompts[0]) == 2  # thread B starts empty: memory came from the store

    other = scripted("I don't know yet.")
    agent_for(reopened, other).invoke(
        {"messages": [("user", "Where do I live and what do I eat?")]},
        {"configurable": {"thread_id": "C"}},
        context=Context(user_id="bob"),
    )
    bob_sees = "\n".join(m.text for m in other.prompts[0])
    assert "Lisbon" not in bob_sees and "vegetarian" not in bob_sees
    assert reopened.count(("users", "bob")) == 0  # a question is not a memory
    assert {i.text: i.value["sessions"] for i in reopened.search(("users", "ada"))} == {
        "Ada is vegetarian.": ["A"],
        "Ada lives in Lisbon.": ["A"],
        "I'm vegetarian and I live in Lisbon.": ["A"],
    }  # thread B asked a question, so it stored nothing


async def test_async_agent_run_recalls_and_saves(tmp_path):
    store = small_store(tmp_path)
    store.put(("users", "ada"), "tea", {"text": "Ada drinks green tea."})
    model = scripted(call("remember", "c1", text="Ada has a cat called Pixel."), "Noted.")
    await agent_for(store, model).ainvoke(
        {"messages": [("user", "My cat is called Pixel.")]},
        {"configurable": {"thread_id": "A"}},
        context=Context(user_id="ada"),
    )
    assert "Ada drinks green tea." in system_text(model.prompts[0])
    texts = {i.text for i in await store.asearch(("users", "ada"))}
    assert texts == {
        "Ada drinks green tea.",
        "Ada has a cat called Pixel.",
        "My cat is called Pixel.",
    }


def test_run_without_user_id_fails_instead_of_sharing_memories(tmp_path):
    store = small_store(tmp_path)
    agent = create_agent(
        scripted("hello"),
        create_memory_tools(store),
        middleware=[MemoryMiddleware(store)],
        checkpointer=InMemorySaver(),
    )
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"thread_id": "A"}})
    assert store.count() == 0
