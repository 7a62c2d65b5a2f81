"""A user who pasted a 280 KB message in one thread gets, in the next, a system message whose
memory block keeps to the memory's budgets (``max_block_chars`` plus header and fences) and
still names their dog; the paste itself is answered and saved without an error."""

import json

from langchain.agents import create_agent
from langchain_core.messages import SystemMessage
from langchain_memvault import MemoryMiddleware

from memvault.context import DEFAULT_MAX_BLOCK_CHARS, DEFAULT_MEMORY_HEADER
from tests.langchain.fakes import scripted, small_store

PASTED = "We hiked for hours and I took photos of the lake. " * 5600  # 280,000 characters
OVERHEAD = len(DEFAULT_MEMORY_HEADER) + len("\n```memories\n") + len("\n```")


def test_the_next_threads_system_message_is_bounded():
    store = small_store()
    model = scripted("Nice dog!", "What a trip!", "Your dog is Rex.")
    agent = create_agent(model, system_prompt="Be brief.", middleware=[MemoryMiddleware(store)])
    for thread, text in enumerate(("My dog is called Rex.", PASTED, "What is my dog called?")):
        agent.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"thread_id": f"t{thread}"}},
            context={"user_id": "ada"},
        )

    system = model.prompts[-1][0]
    assert isinstance(system, SystemMessage)
    block = system.text.removeprefix("Be brief.\n\n")
    assert len(block) <= DEFAULT_MAX_BLOCK_CHARS + OVERHEAD
    texts = [json.loads(line)["text"] for line in block.splitlines() if line.startswith("{")]
    assert "My dog is called Rex." in texts
    assert any(text.endswith(" more characters]") for text in texts)
