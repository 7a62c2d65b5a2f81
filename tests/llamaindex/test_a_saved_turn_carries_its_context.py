"""A statement the LlamaIndex memory saves carries the context an ingested turn has: the date it
was saved, the two messages before it (the session's previous turn), the user's message and the
reply to it."""

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory

from memvault import memory_key
from tests.core.saved_context import lines_after_the_date


def test_a_saved_statement_carries_the_turn_before_it_and_its_own_reply(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm("Lovely."),
        memory=memvault_memory(store, user_id="alice", session_id="s1"),
    )
    engine.chat("I adopted a cat called Pixel.")
    engine.chat("Thanks! She is a Maine Coon.")

    item = store.get(("users", "alice"), memory_key("She is a Maine Coon."))
    assert item.text == "She is a Maine Coon."
    assert lines_after_the_date(item.value) == [
        "user: I adopted a cat called Pixel.",
        "assistant: Lovely.",
        "user: Thanks! She is a Maine Coon.",
        "assistant: Lovely.",
    ]
