from llama_index.core.llms import ChatMessage
from llama_index.core.memory import Memory
from llama_index.memory.memvault import MemvaultMemoryBlock


def test_messages_flushed_out_of_a_small_token_budget_are_stored(store):
    block = MemvaultMemoryBlock(store, user_id="alice")
    memory = Memory.from_defaults(
        session_id="s1", token_limit=60, token_flush_size=20, memory_blocks=[block]
    )
    said = [f"Fact number {n}: my favourite colour this week is colour {n}." for n in range(8)]
    for text in said:
        memory.put(ChatMessage(role="user", content=text))
        memory.put(ChatMessage(role="assistant", content="Noted."))

    stored = {item.text for item in store.search(("users", "alice"), limit=50)}
    still_short_term = {m.content for m in memory.get_all(status=None) if m.role == "user"}
    active = {m.content for m in memory.get() if m.role == "user"}

    assert stored, "nothing overflowed into the store"
    assert stored < set(said)
    assert stored | active == set(said) == still_short_term
    assert said[0] in stored and said[-1] not in stored
    assert all(item.value["session_id"] == "s1" for item in store.search(("users",), limit=50))
