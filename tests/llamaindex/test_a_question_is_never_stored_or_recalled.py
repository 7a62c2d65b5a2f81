"""What the user asked is not a memory: only what the user said is stored and recalled."""

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory


def _session(store, llm, session_id):
    return SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="alice", session_id=session_id)
    )


def test_an_earlier_sessions_question_never_reaches_a_later_prompt(store, recording_llm):
    earlier = _session(store, recording_llm(), "s1")
    earlier.chat("Which nuts should I avoid?")
    earlier.chat("Thanks! I am allergic to kiwi.")
    earlier.chat("Plan a picnic for Sunday.")
    llm = recording_llm()

    _session(store, llm, "s2").chat("Which nuts and fruit should I avoid at a picnic?")

    assert [item.text for item in store.search(("users", "alice"))] == ["I am allergic to kiwi."]
    (prompt,) = llm.prompts
    assert '{"text": "I am allergic to kiwi."' in prompt
    assert "Which nuts should I avoid" not in prompt
    assert "Plan a picnic" not in prompt
