"""Forgetting a saved turn takes its words out of the turns around it (issue 29, finding 1).

A turn's neighbours carry it in their ``context``, which is embedded and indexed with them: a
search for the forgotten words found a neighbour, a later prompt quoted it, an export held it.
"""

import json

from tests.core.memory_fixtures import hashing_memory

ALLERGY = "I am allergic to peanuts."
SESSION = [
    {"role": "user", "content": ALLERGY},
    {"role": "user", "content": "My sister is called Ana. She lives in Porto."},
]


def saved_then_forgotten():
    memory = hashing_memory()
    scope = memory.scope(user_id="ada", session_id="s1")
    for at, message in enumerate(SESSION):
        scope.save_turns([message], timestamp=1_700_000_000 + 60 * at)
    removed = scope.forget("that I am allergic to peanuts")
    assert [item.text for item in removed] == [ALLERGY]
    return memory, scope


def test_no_neighbour_is_found_by_or_holds_the_forgotten_words():
    memory, scope = saved_then_forgotten()
    found = memory.store.search(("users", "ada"), query="peanuts allergy", mode="lexical")
    assert found == []
    (sister,) = memory.store.search(("users", "ada"))
    assert sister.text == "My sister is called Ana. She lives in Porto."
    assert "peanuts" not in sister.value["context"]
    assert "user: My sister is called Ana. She lives in Porto." in sister.value["context"]


def test_the_next_turn_and_the_prompt_do_not_quote_it(tmp_path):
    memory, scope = saved_then_forgotten()
    scope.save_turns([{"role": "user", "content": "I work as a nurse."}], timestamp=1_700_000_600)
    for item in memory.store.search(("users", "ada")):
        assert "peanuts" not in json.dumps(item.value), item.key
    assert "peanuts" not in scope.context("Do I have any allergies?")


def test_an_export_keeps_the_words_in_history_only(tmp_path):
    memory, _ = saved_then_forgotten()
    memory.store.export_jsonl(tmp_path / "ada.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "ada.jsonl").read_text().splitlines()]
    items = [line for line in lines if line.get("kind") != "history"]
    assert items and all("peanuts" not in json.dumps(item) for item in items)
    history = [line for line in lines if line.get("kind") == "history"]
    assert any("peanuts" in json.dumps(entry) for entry in history)  # as `history` documents
