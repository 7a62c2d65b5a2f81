"""``forget(..., erase=True)`` leaves the forgotten text nowhere a reader of the store finds it:
after erasing, an export of the store and the history of every key (the erased memories',
their neighbours', a superseded copy's) hold it 0 times. Erased memories keep history entries
without text, ending in ``"erase"``; the neighbours that quoted it are written again without
it, holding as they did. A plain forget still keeps the text in the history (as documented)."""

import json

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore

ADA = ("users", "ada")
SECRET = "I was diagnosed with diabetes last year."
WORDS = ("diabetes", "diagnosed")
SESSION = [
    "I have a cat named Miso.",
    SECRET,
    "I love hiking in the Alps.",
    "My sister is called Ana.",
]


def saved():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    scope = AgentMemory(store).scope(user_id="ada", session_id="s1")
    for at, text in enumerate(SESSION):
        scope.save_turns([{"role": "user", "content": text}], timestamp=1_700_000_000 + 60 * at)
    other = AgentMemory(store).scope(user_id="ada", session_id="s2")
    (old,) = other.save_turns(
        [{"role": "user", "content": "I was diagnosed with diabetes in 2022."}],
        timestamp=1_700_001_000,
    )
    other.supersede(old.key, "I was diagnosed with diabetes in 2021, in fact.")
    return store, scope


def exported(store, tmp_path):
    store.export_jsonl(tmp_path / "ada.jsonl")
    return (tmp_path / "ada.jsonl").read_text(encoding="utf-8")


def histories(store, export):
    keys = {json.loads(line)["key"] for line in export.splitlines()}
    return {key: json.dumps([e.to_json() for e in store.history(ADA, key)]) for key in keys}


@pytest.fixture
def erased(tmp_path):
    store, scope = saved()
    removed = scope.forget("that I was diagnosed with diabetes", erase=True)
    return store, scope, removed, exported(store, tmp_path)


def test_no_export_line_or_history_holds_the_text(erased):
    store, _, removed, export = erased
    assert sorted(item.text for item in removed) == sorted(
        [
            SECRET,
            "I was diagnosed with diabetes in 2022.",
            "I was diagnosed with diabetes in 2021, in fact.",
        ]
    )
    for word in WORDS:
        assert export.count(word) == 0
        held = {key: text.count(word) for key, text in histories(store, export).items()}
        assert set(held.values()) == {0}, held


def test_erased_memories_keep_entries_without_text_ending_in_erase(erased):
    store, _, removed, _ = erased
    for item in removed:
        entries = store.history(ADA, item.key)
        assert entries[-1].event == "erase"
        assert all(e.before is None and e.after is None for e in entries)


def test_the_neighbours_stay_without_the_text_holding_as_they_did(erased):
    store, scope, _, _ = erased
    texts = sorted(item.text for item in scope.list(100))
    assert texts == sorted(text for text in SESSION if text != SECRET)
    cat = next(item for item in scope.list(100) if item.text == SESSION[0])
    assert cat.valid_from == 1_700_000_000 and cat.valid_to is None
    assert "Miso" in cat.value["context"] and "diabetes" not in cat.value["context"]
    assert [e.event for e in store.history(ADA, cat.key)][-2:] == ["erase", "add"]


def test_a_forget_without_erase_keeps_the_text_in_the_history(tmp_path):
    store, scope = saved()
    scope.forget("that I was diagnosed with diabetes")
    export = exported(store, tmp_path)
    items = [line for line in export.splitlines() if '"kind": "history"' not in line]
    assert all("diabetes" not in line for line in items)
    assert "diabetes" in export
