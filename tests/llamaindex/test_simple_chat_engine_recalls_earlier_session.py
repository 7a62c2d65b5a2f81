from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory


def test_a_new_session_sends_the_llm_what_the_user_said_before(open_disk_store, recording_llm):
    store = open_disk_store()
    llm = recording_llm()
    engine = SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="alice", session_id="monday")
    )
    engine.chat("I am allergic to peanuts.")
    engine.chat("My sister Ana lives in Lisbon.")
    store.close()

    store = open_disk_store()
    llm = recording_llm()
    engine = SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="alice", session_id="friday")
    )
    engine.chat("Which nuts am I allergic to?")

    (prompt,) = llm.prompts
    assert '{"text": "I am allergic to peanuts."' in prompt
    assert "```memories" in prompt


async def test_another_user_never_gets_those_memories(open_disk_store, recording_llm):
    store = open_disk_store()
    alice = SimpleChatEngine.from_defaults(
        llm=recording_llm(), memory=memvault_memory(store, user_id="alice", session_id="s1")
    )
    await alice.achat("I am allergic to peanuts.")
    store.close()

    store = open_disk_store()
    llm = recording_llm()
    bob = SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="bob", session_id="s2")
    )
    await bob.achat("Which nuts am I allergic to?")

    (prompt,) = llm.prompts
    assert "peanuts" not in prompt
    assert "memories" not in prompt
