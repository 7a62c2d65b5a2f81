"""A user who pasted a 280 KB message in one session gets, in the next, a memvault block that
keeps to the memory's budgets (``max_block_chars`` plus header and fences) and still names
their dog, whatever room ``Memory``'s token limit leaves."""

import json

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory

from memvault.context import DEFAULT_MAX_BLOCK_CHARS, DEFAULT_MEMORY_HEADER

PASTED = "We hiked for hours and I took photos of the lake. " * 5600  # 280,000 characters
OVERHEAD = len(DEFAULT_MEMORY_HEADER) + len("\n```memories\n") + len("\n```")


def test_the_next_sessions_block_is_bounded_and_keeps_the_dog(store, recording_llm):
    earlier = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="ada", session_id="monday")
    )
    earlier.chat("My dog is called Rex.")
    earlier.chat(PASTED)

    llm = recording_llm()
    later = SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="ada", session_id="friday")
    )
    later.chat("What is my dog called?")

    (prompt,) = llm.prompts
    block = prompt.split("<memvault>\n")[1].split("\n</memvault>")[0]
    assert len(block) <= DEFAULT_MAX_BLOCK_CHARS + OVERHEAD
    texts = [json.loads(line)["text"] for line in block.splitlines() if line.startswith("{")]
    assert "My dog is called Rex." in texts
    assert any(text.endswith(" more characters]") for text in texts)
