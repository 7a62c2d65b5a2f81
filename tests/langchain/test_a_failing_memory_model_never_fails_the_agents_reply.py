"""When the memory's model fails (a timeout) in the run, the agent still replies and the user's
statement is stored instead of the facts; nothing stored is changed."""

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor, Reconciler
from tests.langchain.fakes import scripted, small_store


def failing(messages):
    raise TimeoutError("the memory model took too long")


def test_the_reply_comes_back_and_the_statement_is_stored():
    store = small_store()
    store.put(("users", "ada"), "steak", {"text": "The user loves steak."})
    for middleware in (
        MemoryMiddleware(store, reconciler=Reconciler(failing)),
        MemoryMiddleware(store, extractor=FactExtractor(failing), reconciler=Reconciler(failing)),
    ):
        agent = create_agent(scripted("Noted!"), middleware=[middleware])
        result = agent.invoke(
            {"messages": [("user", "I no longer eat meat.")]}, context={"user_id": "ada"}
        )
        assert result["messages"][-1].text == "Noted!"

    assert sorted(i.text for i in store.search(("users", "ada"))) == [
        "I no longer eat meat.",
        "The user loves steak.",
    ]
