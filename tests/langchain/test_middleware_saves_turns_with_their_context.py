"""A statement MemoryMiddleware saves carries the context an ingested turn has: the date it was
saved, the two messages before it (the thread's previous run), the user's message and the
agent's reply to it."""

from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from memvault import memory_key
from tests.core.saved_context import lines_after_the_date
from tests.langchain.fakes import scripted, small_store


def run(agent, text, thread):
    agent.invoke(
        {"messages": [("user", text)]},
        {"configurable": {"thread_id": thread}},
        context={"user_id": "ada"},
    )


def test_a_saved_statement_carries_the_run_before_it_and_its_own_reply():
    store = small_store()
    agent = create_agent(
        scripted("Congratulations! Which breed?", "A Maine Coon, lovely."),
        middleware=[MemoryMiddleware(store)],
        checkpointer=InMemorySaver(),
    )
    run(agent, "I adopted a cat called Pixel.", "t1")
    run(agent, "Thanks! She is a Maine Coon.", "t1")

    item = store.get(("users", "ada"), memory_key("She is a Maine Coon."))
    assert item.text == "She is a Maine Coon."
    assert lines_after_the_date(item.value) == [
        "user: I adopted a cat called Pixel.",
        "assistant: Congratulations! Which breed?",
        "user: Thanks! She is a Maine Coon.",
        "assistant: A Maine Coon, lovely.",
    ]
