"""AgentMemory(background=True): save_turns returns before the extraction LLM answers, and
flush() then shows the extracted facts stored; the same with asave_turns and aflush, which
never block the event loop."""

import asyncio
import threading
import time

from memvault import FactExtractor
from memvault.background import IngestionStats
from tests.core.event_loop import Ticker
from tests.core.memory_fixtures import hashing_memory
from tests.core.slow_llms import SlowLLM, fact_of

TURN = [
    {"role": "user", "content": "I am allergic to kiwi."},
    {"role": "assistant", "content": "Noted."},
]


def test_save_turns_returns_at_once_and_flush_waits_for_the_facts():
    gate = threading.Event()  # the extraction model answers only when the test opens it
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(gate=gate)), background=True)
    alice = memory.scope(user_id="alice", thread_id="t1")

    assert alice.save_turns(TURN) == []  # returns while the model waits
    assert alice.list() == []
    assert memory.ingestion.pending == 1
    assert memory.flush(timeout=0.2) is False
    gate.set()
    assert memory.flush(timeout=10) is True
    (item,) = alice.list()
    assert item.value["text"] == fact_of("I am allergic to kiwi.")
    assert item.value["kind"] == "fact" and item.value["session_id"] == "t1"
    assert memory.ingestion == IngestionStats(pending=0, done=1, failures=0)


def test_flush_with_a_short_timeout_says_the_work_is_not_done():
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(0.3)), background=True)
    alice = memory.scope(user_id="alice")
    alice.save_turns(TURN)
    assert memory.flush(timeout=0.01) is False
    assert memory.flush() is True
    assert len(alice.list()) == 1


def test_asave_turns_returns_at_once_and_aflush_does_not_block_the_loop():
    gate = threading.Event()  # the extraction model answers only when the test opens it
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(gate=gate)), background=True)
    alice = memory.scope(user_id="alice")

    async def main() -> tuple[int, bool]:
        assert await alice.asave_turns(TURN) == []  # returns while the model waits
        assert alice.list() == []
        asyncio.get_running_loop().call_later(0.3, gate.set)
        async with Ticker() as ticker:
            flushed = await memory.aflush(timeout=10)
        return ticker.ticks, flushed

    ticks, flushed = asyncio.run(main())
    assert flushed is True
    assert ticks >= 5  # the loop kept running while aflush waited ~0.3 s
    assert [item.text for item in alice.list()] == [fact_of("I am allergic to kiwi.")]


def test_without_background_save_turns_waits_and_flush_returns_at_once():
    memory = hashing_memory(extractor=FactExtractor(SlowLLM(0.3)))
    alice = memory.scope(user_id="alice")
    start = time.perf_counter()
    (item,) = alice.save_turns(TURN)
    assert time.perf_counter() - start >= 0.3
    assert item.text == fact_of("I am allergic to kiwi.")
    assert memory.flush() is True and memory.ingestion == IngestionStats()
