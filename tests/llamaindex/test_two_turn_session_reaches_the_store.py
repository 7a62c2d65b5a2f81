from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import memvault_memory


def test_a_short_session_is_stored_by_its_end(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="alice", session_id="s1")
    )
    engine.chat("I am allergic to peanuts.")
    engine.chat("I live in Porto.")

    stored = store.search(("users", "alice"), limit=10)
    # Their contexts: test_a_saved_turn_carries_its_context.py
    values = [{k: v for k, v in item.value.items() if k != "context"} for item in stored]
    assert sorted(values, key=lambda v: v["text"]) == [
        {
            "text": text,
            "kind": "turn",
            "role": "user",
            "mentions": 1,
            "sessions": ["s1"],
            "session_id": "s1",
        }
        for text in ("I am allergic to peanuts.", "I live in Porto.")
    ]


def test_without_write_through_the_same_session_stores_nothing(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm(),
        memory=memvault_memory(store, user_id="alice", session_id="s1", write_through=False),
    )
    engine.chat("I am allergic to peanuts.")
    engine.chat("I live in Porto.")

    assert store.count() == 0


async def test_a_turn_without_a_reply_is_stored_on_flush(store):
    memory = memvault_memory(store, user_id="alice", session_id="s1")
    await memory.aput(ChatMessage(role="user", content="Call me Ally."))
    assert store.count() == 0

    await memory.aflush()
    assert [item.text for item in store.search(("users", "alice"))] == ["Call me Ally."]


async def test_a_streamed_session_is_stored_too(store, recording_llm):
    engine = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="alice", session_id="s1")
    )
    response = engine.stream_chat("I am allergic to peanuts.")
    "".join(response.response_gen)
    response = await engine.astream_chat("I live in Porto.")
    [token async for token in response.async_response_gen()]

    assert {item.text for item in store.search(("users", "alice"))} == {
        "I am allergic to peanuts.",
        "I live in Porto.",
    }
