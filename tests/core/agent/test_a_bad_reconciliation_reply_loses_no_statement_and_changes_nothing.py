"""A reconciliation reply that cannot be trusted (cut off, echoing the prompt, an unknown
event or id, a wordless or invalid text, nested too deep) or a model call that fails changes no
stored memory and loses nothing: the one-call path stores the user's statements, the two-call
path adds the new facts."""

import pytest

from memvault import (
    AgentMemory,
    FactExtractor,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
)
from memvault.reconcile import DEFAULT_TURN_PROMPT
from tests.core.models import ScriptedModel, facts

STEAK = "The user loves steak."
SAID = "I moved to Porto."

BAD_REPLIES = {
    "cut off mid text": '{"decisions": [{"event": "UPDATE", "id": 0, "text": "The user',
    "cut off after a delete": '{"decisions": [{"event": "DELETE", "id": 0}, {"event": "ADD", "te',
    "unknown event": '{"decisions": [{"event": "MOVE", "id": 0, "text": "The user moved."}]}',
    "add without text": '{"decisions": [{"event": "ADD"}]}',
    "text that is a list": '{"decisions": [{"event": "ADD", "text": ["a", "b"]}]}',
    "invented id": '{"decisions": [{"event": "DELETE", "id": 7}]}',
    "entry not an object": '{"decisions": [{"foo": 1}, 3]}',
    "wordless text": '{"decisions": [{"event": "UPDATE", "id": 0, "text": "..."}]}',
    "lone surrogate": '{"decisions": [{"event": "UPDATE", "id": 0, "text": "The \\ud800 user"}]}',
    "echo of the prompt": DEFAULT_TURN_PROMPT,
    "nested too deep": "[" * 3000 + "]" * 3000,
}


class Failing:
    def __call__(self, messages):
        raise TimeoutError("the model took too long")


def store_with_steak():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    AgentMemory(store).scope(user_id="alice").remember(STEAK)
    return store


def texts(store):
    return sorted(item.text for item in store.search(("users", "alice")))


@pytest.mark.parametrize("reply", [*BAD_REPLIES.values(), Failing()], ids=[*BAD_REPLIES, "fails"])
def test_the_one_call_path_stores_the_statement_and_keeps_every_memory(reply, caplog):
    store = store_with_steak()
    model = reply if isinstance(reply, Failing) else ScriptedModel(reply)
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    scope.save_turns([{"role": "user", "content": SAID}])

    assert texts(store) == [SAID, STEAK]
    assert "storing the user's statements instead" in caplog.text


@pytest.mark.parametrize("reply", [*BAD_REPLIES.values(), Failing()], ids=[*BAD_REPLIES, "fails"])
def test_the_two_call_path_adds_the_fact_and_keeps_every_memory(reply):
    store = store_with_steak()
    decide = reply if isinstance(reply, Failing) else ScriptedModel(reply)
    extract = ScriptedModel(facts("The user moved to Porto."))
    memory = AgentMemory(store, extractor=FactExtractor(extract), reconciler=Reconciler(decide))
    memory.scope(user_id="alice").save_turns([{"role": "user", "content": SAID}])

    assert texts(store) == sorted(["The user moved to Porto.", STEAK])


def test_a_failed_extraction_call_stores_the_statement():
    store = store_with_steak()
    memory = AgentMemory(store, extractor=FactExtractor(Failing()))
    memory.scope(user_id="alice").save_turns([{"role": "user", "content": SAID}])

    assert texts(store) == [SAID, STEAK]
