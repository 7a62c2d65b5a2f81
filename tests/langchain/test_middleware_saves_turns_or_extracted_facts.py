"""MemoryMiddleware.after_agent / aafter_agent: what is stored after a turn."""

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_memvault import MemoryMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from memvault import FactExtractor, fact_key
from tests.langchain.fakes import scripted, small_store


def run(agent, text, thread, user="ada"):
    return agent.invoke(
        {"messages": [("user", text)]},
        {"configurable": {"thread_id": thread}},
        context={"user_id": user},
    )


def test_raw_turns_are_saved_with_role_kind_and_thread_by_default():
    store = small_store()
    agent = create_agent(
        scripted("Nice!", "Sure."),
        middleware=[MemoryMiddleware(store, ("users", "{user_id}", "{thread_id}"))],
        checkpointer=InMemorySaver(),
    )
    run(agent, "I adopted a cat called Pixel.", "t1")
    run(agent, "She is three years old.", "t1")

    items = store.search(("users", "ada", "t1"), limit=10)
    assert sorted(i.value["text"] for i in items) == [
        "I adopted a cat called Pixel.",
        "She is three years old.",
    ]  # each turn saved once, only the user's words
    for item in items:
        assert item.value["kind"] == "turn" and item.value["role"] == "user"
        assert item.value["thread_id"] == "t1"
        assert item.key.startswith("turn-")


def test_an_extractor_saves_facts_drawn_from_the_turn_instead():
    store = small_store()
    extractor_llm = FakeListChatModel(
        responses=['{"facts": ["The user has a cat called Pixel.", "The user lives in Porto."]}']
    )
    middleware = MemoryMiddleware(store, extractor=FactExtractor(extractor_llm))
    agent = create_agent(scripted("Lovely!"), middleware=[middleware])
    run(agent, "I live in Porto with my cat Pixel.", "t1")

    items = {i.key: i.value for i in store.search(("users", "ada"))}
    assert items == {
        fact_key("The user has a cat called Pixel."): {
            "text": "The user has a cat called Pixel.",
            "kind": "fact",
        },
        fact_key("The user lives in Porto."): {"text": "The user lives in Porto.", "kind": "fact"},
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
    assert item.value == {"text": "The user likes jazz.", "kind": "fact"}
    assert item.expires_at - item.updated_at == pytest.approx(120)
