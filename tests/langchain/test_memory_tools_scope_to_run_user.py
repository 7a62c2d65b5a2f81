"""The memory tools take their namespace from the run, never from the model."""

from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_memvault import create_memory_tools

from memvault import InvalidNamespaceError, fact_key
from tests.langchain.fakes import call, scripted, small_store


@dataclass
class Context:
    user_id: str


def by_name(store):
    return {tool.name: tool for tool in create_memory_tools(store, ("users", "{user_id}"))}


def test_the_model_facing_schemas_have_no_namespace_or_user_argument():
    schemas = {n: t.tool_call_schema.model_json_schema() for n, t in by_name(small_store()).items()}
    assert {n: sorted(s["properties"]) for n, s in schemas.items()} == {
        "remember": ["text"],
        "recall": ["k", "query"],
        "forget": ["key"],
        "list_memories": ["limit", "offset"],
    }


def test_each_user_reads_and_writes_only_their_own_namespace():
    store = small_store()
    tools = by_name(store)
    ada = {"configurable": {"user_id": "ada"}}
    bob = {"configurable": {"user_id": "bob"}}
    assert tools["remember"].invoke({"text": "Ada is vegetarian."}, ada) == (
        f"Remembered (key {fact_key('Ada is vegetarian.')}): Ada is vegetarian."
    )
    tools["remember"].invoke({"text": "Bob eats fish."}, bob)

    assert '"Ada is vegetarian."' in tools["recall"].invoke({"query": "what do I eat?"}, ada)
    assert "Bob" not in tools["recall"].invoke({"query": "what do I eat?"}, ada)
    assert tools["list_memories"].invoke({}, bob) == (
        f'[{{"key": "{fact_key("Bob eats fish.")}", "text": "Bob eats fish."}}]'
    )
    # bob cannot delete ada's memory even with its exact key
    key = fact_key("Ada is vegetarian.")
    assert tools["forget"].invoke({"key": key}, bob) == f"No memory has key {key}."
    assert store.get(("users", "ada"), key) is not None
    assert tools["forget"].invoke({"key": key}, ada) == f"Forgot {key}."
    assert store.get(("users", "ada"), key) is None


async def test_async_calls_resolve_the_same_way_and_a_missing_user_id_is_an_error():
    store = small_store()
    tools = by_name(store)
    await tools["remember"].ainvoke(
        {"text": "Ada likes jazz."}, {"configurable": {"user_id": "ada"}}
    )
    assert [i.text for i in store.search(("users", "ada"))] == ["Ada likes jazz."]
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        await tools["recall"].ainvoke({"query": "jazz"})
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        tools["remember"].invoke({"text": "orphan fact"}, {"configurable": {"user_id": ""}})
    assert store.count() == 1


def test_inside_an_agent_the_runtime_context_picks_the_namespace():
    store = small_store()
    model = scripted(call("remember", "c1", text="The user plays chess."), "Noted.")
    agent = create_agent(model, create_memory_tools(store), context_schema=Context)
    result = agent.invoke(
        {"messages": [("user", "I play chess.")]},
        {"configurable": {"user_id": "mallory"}},  # context wins over configurable
        context=Context(user_id="ada"),
    )
    assert result["messages"][2].text.startswith("Remembered (key fact-")
    assert [i.text for i in store.search(("users", "ada"))] == ["The user plays chess."]
    assert store.count(("users", "mallory")) == 0
