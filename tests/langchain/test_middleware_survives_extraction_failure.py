"""MemoryMiddleware: an unparsable extractor reply never loses the turn's answer or statement.

The fallback (store the user's statement, log a warning) is the core's
(:meth:`memvault.MemoryScope.save_turns`); the middleware neither catches nor logs it itself.
"""

import logging

import pytest
from langchain.agents import create_agent
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor
from tests.langchain.fakes import scripted, small_store


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_bad_extraction_reply_keeps_the_answer_and_stores_the_raw_turn(mode, caplog):
    store = small_store()
    extractor = FactExtractor(scripted("I can't do that"))
    agent = create_agent(
        scripted("Nice to meet you, Pixel's owner!"),
        middleware=[MemoryMiddleware(store, extractor=extractor)],
    )
    request = {"messages": [("user", "I adopted a cat called Pixel.")]}

    with caplog.at_level(logging.WARNING, logger="memvault.agent_memory"):
        if mode == "sync":
            result = agent.invoke(request, context={"user_id": "ada"})
        else:
            result = await agent.ainvoke(request, context={"user_id": "ada"})

    assert result["messages"][-1].text == "Nice to meet you, Pixel's owner!"
    (item,) = store.search(("users", "ada"))
    assert item.value["text"] == "I adopted a cat called Pixel."
    assert item.value["kind"] == "turn" and item.value["role"] == "user"
    assert "sources" not in item.value
    (record,) = [r for r in caplog.records if r.name == "memvault.agent_memory"]
    assert record.levelno == logging.WARNING
    assert "I can't do that" in record.getMessage()
