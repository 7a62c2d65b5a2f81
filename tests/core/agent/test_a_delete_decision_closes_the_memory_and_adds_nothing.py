"""A reconciler's DELETE ("I no longer eat meat" against "The user loves steak.") closes the
memory when the turn was said and adds nothing: it leaves recall of now, stays what held
before (recall as of an earlier day), and its history records the close."""

from datetime import datetime, timezone

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from tests.core.models import ScriptedModel, decisions

ALICE = ("users", "alice")
STEAK = "The user loves steak."
MAY = datetime(2023, 5, 1, tzinfo=timezone.utc).timestamp()
JULY = datetime(2023, 7, 1, tzinfo=timezone.utc).timestamp()


def said(text):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]


def test_the_memory_is_closed_then_and_nothing_is_added():
    model = ScriptedModel(
        decisions({"event": "ADD", "text": STEAK}),
        decisions({"event": "DELETE", "id": 0}),
    )
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    (steak,) = scope.save_turns(said("I love steak."), timestamp=MAY)

    assert scope.save_turns(said("I no longer eat meat."), timestamp=JULY) == []

    assert scope.list() == [] and scope.recall("What does the user eat?") == []
    (before,) = scope.list(as_of=JULY - 1)
    assert (before.key, before.valid_from, before.valid_to) == (steak.key, MAY, JULY)
    assert [e.event for e in store.history(ALICE, steak.key)] == ["add", "update"]
    assert store.history(ALICE, steak.key)[-1].after == steak.value  # the value is kept
