"""``forget(memory, erase=True)`` from an agent removes the memory's text from its history too;
a plain ``forget`` keeps it there."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_memvault import create_memory_tools

from memvault import memory_key
from tests.langchain.fakes import call, scripted, small_store

SECRET = "I was treated for hepatitis in 2019."


@dataclass
class Context:
    user_id: str


def forget_through_an_agent(erase: bool):
    store = small_store()
    tools = create_memory_tools(store)
    key = memory_key(SECRET)
    model = scripted(
        call("remember", "c1", text=SECRET),
        call("forget", "c2", memory=key, erase=erase),
        "Forgotten.",
    )
    agent = create_agent(model, tools, context_schema=Context)
    agent.invoke({"messages": [("user", "Remember this, then forget it.")]}, context=Context("ada"))
    assert store.get(("users", "ada"), key) is None
    return store.history(("users", "ada"), key)


def test_erase_leaves_the_events_without_their_text():
    history = forget_through_an_agent(erase=True)
    assert [entry.event for entry in history] == ["add", "erase"]
    assert all(entry.before is None and entry.after is None for entry in history)
    assert "hepatitis" not in repr(history)


def test_a_plain_forget_keeps_the_text_in_the_history():
    history = forget_through_an_agent(erase=False)
    assert [entry.event for entry in history] == ["add", "delete"]
    assert history[-1].before["text"] == SECRET
