"""The memory tools take their namespace from the run, never from the model."""

import json
from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_memvault import create_memory_tools

from memvault import memory_key
from memvault.errors import InvalidNamespaceError
from tests.langchain.fakes import call, scripted, small_store


@dataclass
class Context:
    user_id: str


def by_name(store):
    return {tool.name: tool for tool in create_memory_tools(store, ("users", "{user_id}"))}


def memory_lines(block: str) -> list[dict]:
    """The JSON lines inside a rendered memory block."""
    return [json.loads(line) for line in block.splitlines() if line.startswith("{")]


def test_the_model_facing_schemas_have_no_namespace_or_user_argument():
    schemas = {n: t.tool_call_schema.model_json_schema() for n, t in by_name(small_store()).items()}
    assert {n: sorted(s["properties"]) for n, s in schemas.items()} == {
        "remember": ["replaces", "text"],
        "recall": ["as_of", "limit", "query"],
        "forget": ["erase", "memory"],
        "list_memories": ["limit", "offset"],
    }


def test_each_user_reads_and_writes_only_their_own_namespace():
    store = small_store()
    tools = by_name(store)
    ada = {"configurable": {"user_id": "ada"}}
    bob = {"configurable": {"user_id": "bob"}}
    key = memory_key("Ada is vegetarian.")
    assert tools["remember"].invoke({"text": "Ada is vegetarian."}, ada) == (
        f"Remembered (id {key}): Ada is vegetarian."
    )
    tools["remember"].invoke({"text": "Bob eats fish."}, bob)

    recalled = memory_lines(tools["recall"].invoke({"query": "what do I eat?"}, ada))
    assert [(m["id"], m["text"]) for m in recalled] == [(key, "Ada is vegetarian.")]
    listed = memory_lines(tools["list_memories"].invoke({}, bob))
    assert [(m["id"], m["text"]) for m in listed] == [
        (memory_key("Bob eats fish."), "Bob eats fish.")
    ]
    # bob cannot delete ada's memory even with its exact id
    assert tools["forget"].invoke({"memory": key}, bob) == (
        f"No memory matches {key!r}; nothing was forgotten."
    )
    assert store.get(("users", "ada"), key) is not None
    forgot = tools["forget"].invoke({"memory": key}, ada)
    assert forgot.startswith("Forgot 1 memory:\n")
    assert [m["id"] for m in memory_lines(forgot)] == [key]
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
        {"configurable": {"user_id": "mallory", "thread_id": "t1"}},  # context wins
        context=Context(user_id="ada"),
    )
    assert result["messages"][2].text == (
        f"Remembered (id {memory_key('The user plays chess.')}): The user plays chess."
    )
    (item,) = store.search(("users", "ada"))
    assert item.value == {
        "text": "The user plays chess.",
        "kind": "fact",
        "mentions": 1,
        "sessions": ["t1"],
        "session_id": "t1",
    }
    assert store.count(("users", "mallory")) == 0
