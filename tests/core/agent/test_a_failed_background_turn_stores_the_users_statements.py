"""A background turn whose extraction raises (the LLM is down) is logged as a warning and
counted, and the user's statements are stored instead; a fallback that fails too is logged and
counted, and the worker goes on with the next turn."""

import logging

from memvault import FactExtractor
from tests.core.memory_fixtures import hashing_memory
from tests.core.slow_llms import SlowLLM

LOGGER = "memvault.background"
TURN = [
    {"role": "user", "content": "Thanks! I am allergic to kiwi. Which fruit is safe?"},
    {"role": "assistant", "content": "Apples are fine."},
]


def test_a_raising_llm_is_logged_counted_and_the_statements_are_stored(caplog):
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(0.05, fail=True)), background=True)
    alice = memory.scope(user_id="alice", thread_id="t1")

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert alice.save_turns(TURN) == []
        assert memory.flush(timeout=10)

    assert memory.ingestion.failures == 1 and memory.ingestion.done == 1
    (item,) = alice.list()
    assert item.value["text"] == "I am allergic to kiwi."
    assert item.value["kind"] == "turn" and item.value["role"] == "user"
    (record,) = [r for r in caplog.records if r.name == LOGGER]
    assert record.levelno == logging.WARNING
    assert "ConnectionError" in record.getMessage() and "the model server went away" in (
        record.getMessage()
    )
    assert record.exc_info is not None


def test_a_failing_fallback_is_logged_and_counted_and_the_worker_goes_on(caplog, monkeypatch):
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(0.05, fail=True)), background=True)
    alice = memory.scope(user_id="alice")
    put = memory.store.put

    def broken_put(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(memory.store, "put", broken_put)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        alice.save_turns(TURN)
        assert memory.flush(timeout=10)
    assert memory.ingestion.failures == 2
    levels = [r.levelno for r in caplog.records if r.name == LOGGER]
    assert levels == [logging.WARNING, logging.ERROR]

    monkeypatch.setattr(memory.store, "put", put)
    alice.save_turns([{"role": "user", "content": "I live in Porto."}])
    assert memory.flush(timeout=10)
    assert memory.ingestion.failures == 3  # the LLM still fails; the statement is stored
    assert [item.text for item in alice.list()] == ["I live in Porto."]
