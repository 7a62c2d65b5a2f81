"""Tools written for LangGraph's InMemoryStore work unchanged on persistent memory."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.tools import tool
from langchain_memvault import MemvaultLangGraphStore

from tests.langchain.fakes import call, scripted, small_store


@dataclass
class Context:
    user_id: str


@tool
def save_preference(topic: str, choice: str, runtime: ToolRuntime[Context]) -> str:
    """Save the user's preference on a topic."""
    runtime.store.put(("prefs", runtime.context.user_id), topic, {"choice": choice})
    return "saved"


@tool
def read_preferences(runtime: ToolRuntime[Context]) -> str:
    """Read all of the user's preferences."""
    items = runtime.store.search(("prefs", runtime.context.user_id))
    return ", ".join(sorted(f"{i.key}={i.value['choice']}" for i in items)) or "none"


def agent(store, model):
    return create_agent(
        model,
        [save_preference, read_preferences],
        context_schema=Context,
        store=MemvaultLangGraphStore(store),
    )


def test_runtime_store_writes_persist_across_a_reopen(tmp_path):
    core = small_store(tmp_path)
    model = scripted(call("save_preference", "c1", topic="drink", choice="tea"), "Saved.")
    agent(core, model).invoke({"messages": [("user", "I prefer tea.")]}, context=Context("ada"))
    core.close()

    reopened = small_store(tmp_path)
    model = scripted(call("read_preferences", "c1"), "You prefer tea.")
    result = agent(reopened, model).invoke(
        {"messages": [("user", "What do I prefer?")]}, context=Context("ada")
    )
    assert result["messages"][2].text == "drink=tea"
    model = scripted(call("read_preferences", "c1"), "Nothing yet.")
    result = agent(reopened, model).invoke(
        {"messages": [("user", "What do I prefer?")]}, context=Context("bob")
    )
    assert result["messages"][2].text == "none"
