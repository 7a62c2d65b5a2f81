import json

from llama_index.core.llms import ChatMessage
from llama_index.core.storage.chat_store.sql import MessageStatus
from llama_index.memory.memvault import memvault_memory

from memvault import FactExtractor, memory_key


def test_with_an_extractor_a_finished_turn_is_stored_as_facts(store):
    sent = []

    def llm(messages):
        sent.append(messages)
        return json.dumps(
            {"facts": ["The user is allergic to peanuts.", "The user lives in Porto."]}
        )

    memory = memvault_memory(store, user_id="alice", session_id="s1", extractor=FactExtractor(llm))
    memory.put(ChatMessage(role="user", content="I'm allergic to peanuts and live in Porto."))
    memory.put(ChatMessage(role="assistant", content="Got it."))

    said = memory_key("I'm allergic to peanuts and live in Porto.")
    stored = {item.key: item.value for item in store.search(("users", "alice"))}
    assert stored == {
        memory_key(text): {
            "text": text,
            "kind": "fact",
            "mentions": 1,
            "sessions": ["s1"],
            "session_id": "s1",
            "sources": [said],
        }
        for text in ("The user is allergic to peanuts.", "The user lives in Porto.")
    }
    (prompt,) = sent
    assert "user: I'm allergic to peanuts and live in Porto." in prompt[-1]["content"]
    assert "assistant: Got it." in prompt[-1]["content"]


def test_each_turn_is_extracted_once_even_when_history_overflows(store):
    calls = []

    def llm(messages):
        calls.append(messages)
        return json.dumps({"facts": [f"The user said fact {len(calls)}."]})

    memory = memvault_memory(
        store, user_id="alice", session_id="s1", extractor=FactExtractor(llm), token_limit=40
    )
    for n in range(6):
        memory.put(ChatMessage(role="user", content=f"Here is a long message number {n} for you."))
        memory.put(ChatMessage(role="assistant", content="Thanks, noted."))

    assert memory.get_all(status=MessageStatus.ARCHIVED)  # older turns were flushed out
    assert len(calls) == 6
    assert store.count(("users", "alice")) == 6
