"""After the forget tool, no memory of the thread quotes the forgotten turn (issue 29,
finding 1): the turns saved around it carried it in their contexts, and so did the next turn."""

import json

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware, create_memory_tools
from langgraph.checkpoint.memory import InMemorySaver

from tests.langchain.fakes import call, scripted, small_store


def test_the_forgotten_turn_is_in_no_memory_and_no_later_prompt():
    store = small_store()
    model = scripted(
        "Noted.",
        "Nice.",
        call("forget", "c1", memory="that I am allergic to peanuts"),
        "Done, I forgot it.",
        "Good to know.",
        "I don't know of any allergy.",
    )
    agent = create_agent(
        model,
        create_memory_tools(store),
        middleware=[MemoryMiddleware(store)],
        checkpointer=InMemorySaver(),
    )

    def ask(text, thread):
        agent.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"thread_id": thread}},
            context={"user_id": "ada"},
        )

    ask("I am allergic to peanuts.", "t1")
    ask("My sister is called Ana.", "t1")
    (sister,) = store.search(("users", "ada"), query="sister", mode="lexical")
    assert "peanuts" in sister.value["context"]

    ask("Please forget that I am allergic to peanuts.", "t1")
    ask("I work as a nurse.", "t1")
    stored = store.search(("users", "ada"))
    assert sorted(item.text for item in stored) == [
        "I work as a nurse.",
        "My sister is called Ana.",
    ]
    assert all("peanuts" not in json.dumps(item.value) for item in stored)

    ask("Do I have any allergies?", "t2")
    assert "peanuts" not in "\n".join(m.text for m in model.prompts[-1])
