"""The background worker holds at most MAX_PENDING waiting turns: one more makes save_turns wait
until a turn is done, and asave_turns wait without blocking the event loop."""

import asyncio
import json
import threading
import time

from memvault import FactExtractor
from memvault.background import MAX_PENDING, BackgroundWorker
from tests.core.event_loop import Ticker
from tests.core.memory_fixtures import hashing_memory
from tests.core.slow_llms import fact_of


class GatedLLM:
    """Answers one fact per call, each call waiting until ``gate`` is set."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()

    def __call__(self, prompt):
        self.started.set()
        assert self.gate.wait(30)
        return json.dumps({"facts": [fact_of("something")]})


def turn(n: int) -> list[dict]:
    return [{"role": "user", "content": f"My number is {n}."}]


def test_one_turn_more_than_max_pending_waits_for_room():
    llm = GatedLLM()
    memory = hashing_memory(extractor=FactExtractor(llm), background=True)
    alice = memory.scope(user_id="alice")
    alice.save_turns(turn(0))
    assert llm.started.wait(10)  # turn 0 is running, so the queue is empty
    start = time.perf_counter()
    for n in range(1, MAX_PENDING + 1):
        alice.save_turns(turn(n))
    assert time.perf_counter() - start < 5  # MAX_PENDING turns fit without waiting
    assert memory.ingestion.pending == MAX_PENDING + 1

    returned = threading.Event()
    late = threading.Thread(target=lambda: (alice.save_turns(turn(999)), returned.set()))
    late.start()
    assert not returned.wait(0.3)  # full: the caller waits
    llm.gate.set()
    assert returned.wait(10)
    late.join()
    assert memory.flush(timeout=60)
    assert memory.ingestion.done == MAX_PENDING + 2 and memory.ingestion.failures == 0


def test_asubmit_on_a_full_queue_waits_without_blocking_the_loop():
    worker = BackgroundWorker("bounded", max_pending=2)
    gate, started, ran = threading.Event(), threading.Event(), []
    worker.submit(lambda: (started.set(), gate.wait(30)))
    assert started.wait(10)
    worker.submit(lambda: ran.append(1))
    worker.submit(lambda: ran.append(2))

    async def main() -> int:
        async with Ticker() as ticker:
            submit = asyncio.create_task(worker.asubmit(lambda: ran.append(3)))
            await asyncio.sleep(0.3)
            assert not submit.done()  # full: waiting for room
            gate.set()
            await submit
            assert await worker.aflush(timeout=10)
        return ticker.ticks

    assert asyncio.run(main()) >= 10
    assert ran == [1, 2, 3]
