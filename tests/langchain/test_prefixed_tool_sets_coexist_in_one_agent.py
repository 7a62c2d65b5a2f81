"""Two memory tool sets, one with a prefix, serve one agent: each writes its own namespace."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_memvault import create_memory_tools

from memvault import AgentMemory
from tests.langchain.fakes import call, scripted, small_store


@dataclass
class Context:
    user_id: str
    org_id: str


def test_org_tools_write_the_org_namespace_and_user_tools_the_users():
    store = small_store()
    user_tools = create_memory_tools(store, ("users", "{user_id}"))
    org_tools = create_memory_tools(
        AgentMemory(store, ("orgs", "{org_id}"), name="organisation"), prefix="org_"
    )
    names = [t.name for t in user_tools + org_tools]
    assert names == [
        "remember",
        "recall",
        "forget",
        "list_memories",
        "org_remember",
        "org_recall",
        "org_forget",
        "org_list_memories",
    ]
    assert org_tools[0].description.endswith("(This is the 'organisation' memory.)")
    assert user_tools[0].description == org_tools[0].description.split(" (This is")[0]

    model = scripted(
        call("org_remember", "c1", text="Acme expense limit is 50 euros a day."),
        call("remember", "c2", text="Ada is vegetarian."),
        call("org_recall", "c3", query="expense limit"),
        "Saved both.",
    )
    agent = create_agent(model, user_tools + org_tools, context_schema=Context)
    result = agent.invoke(
        {"messages": [("user", "Note our expense limit and that I am vegetarian.")]},
        context=Context(user_id="ada", org_id="acme"),
    )

    assert [i.text for i in store.search(("orgs", "acme"))] == [
        "Acme expense limit is 50 euros a day."
    ]
    assert [i.text for i in store.search(("users", "ada"))] == ["Ada is vegetarian."]
    recalled = result["messages"][6]
    assert recalled.name == "org_recall"
    assert "Acme expense limit is 50 euros a day." in recalled.text
    assert "vegetarian" not in recalled.text
