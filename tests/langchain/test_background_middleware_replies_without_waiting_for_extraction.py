"""MemoryMiddleware(background=True): create_agent returns its reply without waiting for the
extraction LLM; after middleware.flush() (or aflush()) the fact is stored and recalled into the
next turn's system message."""

import threading
import time

import pytest
from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor
from tests.core.slow_llms import SlowLLM, fact_of
from tests.langchain.fakes import scripted, small_store

SAID = "I am allergic to kiwi."


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_the_reply_comes_first_and_flush_makes_the_fact_recallable(mode):
    store = small_store()
    gate = threading.Event()  # the extraction model answers only when the test opens it
    middleware = MemoryMiddleware(
        store, extractor=FactExtractor(SlowLLM(gate=gate)), background=True
    )
    model = scripted("Noted.", "Avoid kiwi.")
    agent = create_agent(model, middleware=[middleware])
    first = {"messages": [("user", SAID)]}
    second = {"messages": [("user", "Which fruit should I avoid?")]}

    if mode == "sync":
        result = agent.invoke(first, context={"user_id": "ada"})
    else:
        result = await agent.ainvoke(first, context={"user_id": "ada"})

    assert result["messages"][-1].text == "Noted."  # replied while the extraction waits
    assert store.search(("users", "ada")) == []
    gate.set()
    if mode == "sync":
        assert middleware.flush(timeout=10) is True
    else:
        assert await middleware.aflush(timeout=10) is True
    (item,) = store.search(("users", "ada"))
    assert item.text == fact_of(SAID) and item.value["kind"] == "fact"

    if mode == "sync":
        agent.invoke(second, context={"user_id": "ada"})
    else:
        await agent.ainvoke(second, context={"user_id": "ada"})
    system = model.prompts[-1][0]
    assert system.type == "system" and fact_of(SAID) in system.text
    assert middleware.flush() is True
    assert middleware.memory.ingestion.done == 2 and middleware.memory.ingestion.failures == 0


def test_without_background_the_reply_waits_for_extraction():
    store = small_store()
    middleware = MemoryMiddleware(store, extractor=FactExtractor(SlowLLM(0.3)))
    agent = create_agent(scripted("Noted."), middleware=[middleware])
    start = time.perf_counter()
    agent.invoke({"messages": [("user", SAID)]}, context={"user_id": "ada"})
    assert time.perf_counter() - start >= 0.3
    assert [item.text for item in store.search(("users", "ada"))] == [fact_of(SAID)]
    assert middleware.flush() is True
