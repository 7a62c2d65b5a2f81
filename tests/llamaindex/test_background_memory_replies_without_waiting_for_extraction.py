"""memvault_memory(..., background=True): SimpleChatEngine and FunctionAgent reply without
waiting for the extraction LLM; after memory.flush() / aflush() the fact is stored and the next
session's model is sent it. Without background the reply waits for the extraction."""

import asyncio
import threading
import time

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import MemvaultMemoryBlock, memvault_memory

from memvault import FactExtractor
from tests.core.slow_llms import SlowLLM, fact_of

SAID = "I am allergic to peanuts."


def test_a_chat_engine_replies_first_and_flush_stores_the_fact(store, recording_llm):
    gate = threading.Event()  # the extraction model answers only when the test opens it
    extractor = FactExtractor(SlowLLM(gate=gate))
    memory = memvault_memory(
        store, user_id="alice", session_id="s1", extractor=extractor, background=True
    )
    engine = SimpleChatEngine.from_defaults(llm=recording_llm("Noted."), memory=memory)

    assert str(engine.chat(SAID)) == "Noted."  # replied while the extraction waits
    assert store.search(("users", "alice")) == []
    gate.set()
    assert memory.flush(timeout=10) is True
    (item,) = store.search(("users", "alice"))
    assert item.text == fact_of(SAID) and item.value["kind"] == "fact"

    llm = recording_llm("Avoid peanuts.")
    later = memvault_memory(store, user_id="alice", session_id="s2")
    SimpleChatEngine.from_defaults(llm=llm, memory=later).chat("Which nuts should I avoid?")
    (prompt,) = llm.prompts
    assert fact_of(SAID) in prompt


async def test_a_function_agent_replies_first_and_aflush_stores_the_fact(store, scripted_agent_llm):
    gate = threading.Event()  # the extraction model answers only when the test opens it
    extractor = FactExtractor(SlowLLM(gate=gate))
    memory = memvault_memory(
        store, user_id="alice", session_id="s1", extractor=extractor, background=True
    )
    agent = FunctionAgent(tools=[], llm=scripted_agent_llm(), system_prompt="You help.")

    reply = await agent.run(SAID, memory=memory)
    assert str(reply) == "I don't know."  # replied while the extraction waits
    assert store.search(("users", "alice")) == []
    gate.set()
    assert await memory.aflush(timeout=10) is True
    assert [item.text for item in store.search(("users", "alice"))] == [fact_of(SAID)]

    llm = scripted_agent_llm()
    later = memvault_memory(store, user_id="alice", session_id="s2")
    agent = FunctionAgent(tools=[], llm=llm, system_prompt="You help.")
    reply = await agent.run("Which nuts should I avoid?", memory=later)
    assert fact_of(SAID) in str(reply)


def test_the_block_alone_returns_before_a_background_extraction(store):
    gate = threading.Event()  # the extraction model answers only when the test opens it
    extractor = FactExtractor(SlowLLM(gate=gate))
    block = MemvaultMemoryBlock(store, user_id="alice", extractor=extractor, background=True)
    turn = [ChatMessage(role="user", content=SAID), ChatMessage(role="assistant", content="OK.")]

    asyncio.run(block.aput(turn, session_id="s1"))  # returns while the extraction waits
    assert store.search(("users", "alice")) == []
    gate.set()
    assert block.flush(timeout=10) is True
    assert [item.text for item in store.search(("users", "alice"))] == [fact_of(SAID)]


async def test_without_background_the_block_waits_for_extraction(store):
    block = MemvaultMemoryBlock(store, user_id="alice", extractor=FactExtractor(SlowLLM(0.3)))
    turn = [ChatMessage(role="user", content=SAID), ChatMessage(role="assistant", content="OK.")]

    start = time.perf_counter()
    await block.aput(turn, session_id="s1")
    assert time.perf_counter() - start >= 0.3
    assert await block.aflush(timeout=10) is True
    assert [item.text for item in store.search(("users", "alice"))] == [fact_of(SAID)]
