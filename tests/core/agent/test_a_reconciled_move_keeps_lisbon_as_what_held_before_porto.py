"""Issue 26's Lisbon → Porto case through AgentMemory with a scripted reconciler: "I live in
Lisbon" (March) then "I moved to Porto" (June). Recall of now holds Porto only; recall as of
April returns Lisbon; the history shows both; and where both are shown (a question naming a
past period) Porto comes first and the injected block dates both."""

import json
from datetime import datetime, timezone

import pytest

from memvault import (
    AgentMemory,
    FactExtractor,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
    memory_key,
)
from tests.core.models import ScriptedModel, decisions, facts

ALICE = ("users", "alice")
LISBON, PORTO = "The user lives in Lisbon.", "The user lives in Porto."
MARCH = datetime(2023, 3, 1, 12, tzinfo=timezone.utc).timestamp()
JUNE = datetime(2023, 6, 2, 12, tzinfo=timezone.utc).timestamp()
APRIL = datetime(2023, 4, 15, tzinfo=timezone.utc)


def said(text):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]


@pytest.fixture
def scope():
    model = ScriptedModel(
        facts(LISBON),
        facts("The user moved to Porto."),
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": PORTO}),
    )
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    memory = AgentMemory(store, extractor=FactExtractor(model), reconciler=Reconciler(model))
    scope = memory.scope(user_id="alice")
    scope.save_turns(said("I live in Lisbon."), timestamp=MARCH)
    scope.save_turns(said("I moved to Porto."), timestamp=JUNE)
    return scope


def block_lines(block):
    return [json.loads(line) for line in block.splitlines()[2:-1]]


def test_recall_of_now_holds_porto_only(scope):
    assert [item.text for item in scope.recall("Where does the user live?")] == [PORTO]
    assert [item.text for item in scope.list()] == [PORTO]


def test_recall_as_of_april_returns_lisbon(scope):
    assert [item.text for item in scope.recall("Where does the user live?", as_of=APRIL)] == [
        LISBON
    ]
    assert [item.text for item in scope.list(as_of=APRIL.timestamp())] == [LISBON]


def test_the_history_shows_both(scope):
    lisbon = scope.store.history(ALICE, memory_key(LISBON))
    porto = scope.store.history(ALICE, memory_key(PORTO))
    assert [(e.event, e.after["text"]) for e in lisbon] == [("add", LISBON), ("update", LISBON)]
    assert lisbon[-1].after["superseded_by"] == memory_key(PORTO)
    assert [(e.event, e.after["text"]) for e in porto] == [("add", PORTO), ("update", PORTO)]
    assert porto[-1].after["supersedes"] == memory_key(LISBON)


def test_a_question_naming_april_shows_both_dated_porto_first(scope):
    block = scope.context("Where did I live in April 2023?")

    assert block_lines(block) == [
        {"text": PORTO, "since": "2023-06-02"},
        {"text": LISBON, "since": "2023-03-01", "until": "2023-06-02"},
    ]
