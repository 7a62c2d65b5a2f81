"""An agent's ``recall`` call with ``as_of`` reads what held then; without, what holds now."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_core.messages import ToolMessage
from langchain_memvault import create_memory_tools

from tests.langchain.fakes import call, moved_from_lisbon_to_porto, scripted, small_store


@dataclass
class Context:
    user_id: str


def test_recall_with_as_of_returns_lisbon_and_without_porto():
    store = small_store()
    moved_from_lisbon_to_porto(store, ("users", "ada"))
    model = scripted(
        call("recall", "c1", query="Where did I live?", as_of="2023-04-15"),
        call("recall", "c2", query="Where do I live?"),
        "In April 2023 you lived in Lisbon; now you live in Porto.",
    )
    agent = create_agent(model, create_memory_tools(store), context_schema=Context)

    result = agent.invoke(
        {"messages": [("user", "Where did I live in mid-April 2023, and where now?")]},
        context=Context(user_id="ada"),
    )

    then, now = [m.text for m in result["messages"] if isinstance(m, ToolMessage)]
    assert "I live in Lisbon." in then and "Porto" not in then
    assert "I moved to Porto." in now and "Lisbon" not in now
    assert result["messages"][-1].text.startswith("In April 2023 you lived in Lisbon")
