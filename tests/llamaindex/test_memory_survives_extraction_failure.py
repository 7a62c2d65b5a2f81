"""memvault_memory with an extractor: an unparsable reply never loses the turn or its answer."""

import logging

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory

from memvault import FactExtractor
from tests.core.saved_context import lines_after_the_date

LOGGER = "memvault.agent_memory"


def test_a_bad_extraction_reply_keeps_the_answer_and_stores_the_users_statement(
    store, recording_llm, caplog
):
    extraction_llm, chat_llm = recording_llm(), recording_llm()
    extraction_llm.reply = "I can't do that"
    chat_llm.reply = "Noted, no peanuts."
    extractor = FactExtractor(extraction_llm)
    memory = memvault_memory(store, user_id="alice", session_id="s1", extractor=extractor)
    engine = SimpleChatEngine.from_defaults(llm=chat_llm, memory=memory)

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        response = engine.chat("I am allergic to peanuts.")

    assert str(response) == "Noted, no peanuts."
    (item,) = store.search(("users", "alice"))
    said = ["user: I am allergic to peanuts.", "assistant: Noted, no peanuts."]
    assert lines_after_the_date(item.value) == said  # the turn, as when ingested
    assert {name: v for name, v in item.value.items() if name != "context"} == {
        "text": "I am allergic to peanuts.",
        "kind": "turn",
        "role": "user",
        "mentions": 1,
        "sessions": ["s1"],
        "session_id": "s1",
    }
    (record,) = [r for r in caplog.records if r.name == LOGGER]
    assert record.levelno == logging.WARNING
    assert "I can't do that" in record.getMessage()
