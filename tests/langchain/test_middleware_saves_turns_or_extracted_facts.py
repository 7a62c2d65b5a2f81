"""MemoryMiddleware.after_agent / aafter_agent: what is stored after a turn."""

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_memvault import MemoryMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from memvault import FactExtractor, memory_key
from tests.langchain.fakes import scripted, small_store


def run(agent, text, thread, user="ada"):
    return agent.invoke(
        {"messages": [("user", text)]},
        {"configurable": {"thread_id": thread}},
        context={"user_id": user},
    )


def turn(text, session):
    return {
        "text": text,
        "kind": "turn",
        "role": "user",
        "mentions": 1,
        "sessions": [session],
        "session_id": session,
    }


def test_the_users_statements_are_saved_as_turns_with_the_thread_as_session():
    store = small_store()
    agent = create_agent(
        scripted("Nice!", "Sure.", "About fifteen years."),
        middleware=[MemoryMiddleware(store, ("users", "{user_id}", "{thread_id}"))],
        checkpointer=InMemorySaver(),
    )
    run(agent, "I adopted a cat called Pixel.", "t1")
    run(agent, "She is three years old.", "t1")
    run(agent, "How long do cats live?", "t1")  # a question: nothing to remember

    # Their contexts: test_middleware_saves_turns_with_their_context.py
    items = {
        i.key: {name: v for name, v in i.value.items() if name != "context"}
        for i in store.search(("users", "ada", "t1"), limit=10)
    }
    assert items == {
        memory_key("I adopted a cat called Pixel."): turn("I adopted a cat called Pixel.", "t1"),
        memory_key("She is three years old."): turn("She is three years old.", "t1"),
    }  # each statement saved once, only the user's words


def test_an_extractor_saves_facts_drawn_from_the_turn_with_their_source():
    store = small_store()
    extractor_llm = FakeListChatModel(
        responses=['{"facts": ["The user has a cat called Pixel.", "The user lives in Porto."]}']
    )
    middleware = MemoryMiddleware(store, extractor=FactExtractor(extractor_llm))
    agent = create_agent(scripted("Lovely!"), middleware=[middleware])
    said = "I live in Porto with my cat Pixel."
    run(agent, said, "t1")

    items = {i.key: i.value for i in store.search(("users", "ada"))}
    fact = {"kind": "fact", "mentions": 1, "sessions": ["t1"], "session_id": "t1"}
    assert items == {
        memory_key("The user has a cat called Pixel."): {
            "text": "The user has a cat called Pixel.",
            **fact,
            "sources": [memory_key(said)],
        },
        memory_key("The user lives in Porto."): {
            "text": "The user lives in Porto.",
            **fact,
            "sources": [memory_key(said)],
        },
    }


async def test_async_turn_saving_and_save_false_recalls_only():
    store = small_store()
    agent = create_agent(scripted("Noted."), middleware=[MemoryMiddleware(store)])
    await agent.ainvoke({"messages": [("user", "I prefer trains.")]}, context={"user_id": "ada"})
    assert [i.text for i in await store.asearch(("users", "ada"))] == ["I prefer trains."]

    quiet = create_agent(scripted("Ok."), middleware=[MemoryMiddleware(store, save=False)])
    await quiet.ainvoke({"messages": [("user", "I also like boats.")]}, context={"user_id": "ada"})
    assert store.count(("users", "ada")) == 1


async def test_async_extraction_saves_facts_with_the_given_ttl():
    store = small_store()
    extractor = FactExtractor(FakeListChatModel(responses=['{"facts": ["The user likes jazz."]}']))
    middleware = MemoryMiddleware(store, extractor=extractor, ttl=120)
    agent = create_agent(scripted("Cool."), middleware=[middleware])
    await agent.ainvoke({"messages": [("user", "I love jazz.")]}, context={"user_id": "ada"})
    (item,) = await store.asearch(("users", "ada"))
    assert item.value == {
        "text": "The user likes jazz.",
        "kind": "fact",
        "mentions": 1,
        "sources": [memory_key("I love jazz.")],
    }
    assert item.expires_at - item.updated_at == pytest.approx(120)
