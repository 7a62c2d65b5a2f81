"""The kiwi case: a fact the user repeats across sessions is one memory, recalled once."""

import json

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import memvault_memory


def _session(store, llm, session_id):
    return SimpleChatEngine.from_defaults(
        llm=llm, memory=memvault_memory(store, user_id="alice", session_id=session_id)
    )


def test_the_fourth_session_prompt_holds_exactly_one_kiwi_line(store, recording_llm):
    for session_id, said in [
        ("monday", "I am allergic to kiwi."),
        ("tuesday", "Hi! I am allergic to kiwi."),
        ("wednesday", "I am allergic to kiwi."),
    ]:
        _session(store, recording_llm(), session_id).chat(said)
    llm = recording_llm()

    _session(store, llm, "thursday").chat("Which fruit should I avoid at the market?")

    (item,) = store.search(("users", "alice"))
    assert item.value["mentions"] == 3
    assert item.value["sessions"] == ["monday", "tuesday", "wednesday"]
    (prompt,) = llm.prompts
    (kiwi,) = [line for line in prompt.split("\n") if "kiwi" in line.lower()]
    assert json.loads(kiwi)["text"] == "I am allergic to kiwi."
