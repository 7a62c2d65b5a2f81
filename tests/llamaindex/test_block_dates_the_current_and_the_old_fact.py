"""The memory block after a move: a question about now recalls Porto only; one naming April
2023 recalls both, Porto first, each line dated with when it held."""

import json

from llama_index.memory.memvault import memvault_memory

from tests.llamaindex.moves import moved_from_lisbon_to_porto

PORTO = {"text": "I moved to Porto.", "since": "2023-06-02"}
LISBON = {"text": "I live in Lisbon.", "since": "2023-03-01", "until": "2023-06-02"}


async def recalled(store, question: str) -> list[dict]:
    """The memory lines of the system message ``Memory`` builds for ``question``."""
    memory = memvault_memory(store, user_id="alice")
    messages = await memory.aget(input=question)
    system = "\n".join(m.content or "" for m in messages if m.role == "system")
    return [json.loads(line) for line in system.splitlines() if line.startswith("{")]


async def test_a_question_about_now_recalls_the_current_fact_only(store):
    moved_from_lisbon_to_porto(store, ("users", "alice"))
    assert await recalled(store, "Where do I live?") == [PORTO]


async def test_a_question_naming_april_2023_recalls_both_dated_current_first(store):
    moved_from_lisbon_to_porto(store, ("users", "alice"))
    assert await recalled(store, "Where did I live in April 2023?") == [PORTO, LISBON]
