"""``remember(text, replaces=KEY)`` closes the memory it corrects instead of overwriting it:
recall now gives the correction, recall as of before it the old memory."""

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_memvault import MemvaultRetriever, create_memory_tools

from tests.langchain.fakes import APRIL, JUNE, MARCH, call, scripted, small_store

ADA = {"configurable": {"user_id": "ada"}}


@dataclass
class Context:
    user_id: str


def test_the_correction_holds_now_and_the_old_memory_as_of_april():
    now = [MARCH.timestamp()]
    store = small_store(clock=lambda: now[0])
    store.put(("users", "ada"), "lisbon", {"text": "I live in Lisbon."})
    now[0] = JUNE.timestamp()
    model = scripted(
        call("remember", "c1", text="I live in Porto.", replaces="lisbon"),
        "Noted: you live in Porto now.",
    )
    agent = create_agent(model, create_memory_tools(store), context_schema=Context)
    agent.invoke({"messages": [("user", "I moved to Porto.")]}, context=Context(user_id="ada"))

    lisbon = store.get(("users", "ada"), "lisbon")
    assert lisbon.valid_to == JUNE.timestamp()
    porto = store.get(("users", "ada"), lisbon.value["superseded_by"])
    assert (porto.text, porto.valid_from, porto.valid_to) == ("I live in Porto.", now[0], None)
    retriever = MemvaultRetriever(store=store)
    assert [d.page_content for d in retriever.invoke("Where do I live?", ADA)] == [
        "I live in Porto."
    ]
    assert [d.page_content for d in retriever.invoke("Where do I live?", ADA, as_of=APRIL)] == [
        "I live in Lisbon."
    ]
