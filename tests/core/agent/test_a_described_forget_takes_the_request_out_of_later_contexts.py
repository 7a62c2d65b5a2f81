"""Forgetting by description also takes the description out of the turns saved after it, so the
request to forget, in the user's own words, is not quoted by the next turn's context (found by
a newcomer: "Please forget about my dog Brutus, he snores too much." stayed in it, and a search
for "Brutus" found the next turn)."""

import json

from tests.core.memory_fixtures import hashing_memory


def test_the_request_to_forget_is_not_quoted_later():
    memory = hashing_memory()
    scope = memory.scope(user_id="alice", session_id="t1")
    scope.save_turns([{"role": "user", "content": "My dog is called Brutus and he snores."}])
    assert [item.text for item in scope.forget("my dog Brutus")] == [
        "My dog is called Brutus and he snores."
    ]
    scope.save_turns(
        [{"role": "user", "content": "Please forget about my dog Brutus, he snores too much."}]
    )
    scope.save_turns([{"role": "user", "content": "I work as a pharmacist."}])
    stored = memory.store.search(("users", "alice"))
    assert [item.text for item in stored] == ["I work as a pharmacist."]
    assert "Brutus" not in json.dumps(stored[0].value)
    assert memory.store.search(("users", "alice"), query="Brutus", mode="lexical") == []
