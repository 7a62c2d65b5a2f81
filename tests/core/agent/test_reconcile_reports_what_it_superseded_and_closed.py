"""``MemoryScope.reconcile`` says what each decision did: an UPDATE is a ``"supersede"``
change (the new memory, and the one it replaced, closed), a DELETE a ``"close"`` change (the
memory as closed), both with the old text in ``before``."""

import json

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from memvault.testing import FakeClock
from tests.core.models import decisions

LISBON, PORTO, STEAK = (
    "The user lives in Lisbon.",
    "The user lives in Porto.",
    "The user loves steak.",
)


def test_an_update_is_a_supersede_and_a_delete_a_close():
    clock = FakeClock()
    store = MemoryStore(
        embedder=HashingEmbedder(dim=256), backend=InMemoryBackend(), clock=clock.time
    )

    def model(messages):  # decides by the ids the memories were shown under
        ids = {m["text"]: m["id"] for m in json.loads(messages[1]["content"])["existing_memories"]}
        return decisions(
            {"fact": 0, "event": "UPDATE", "id": ids[LISBON], "text": PORTO},
            {"fact": 1, "event": "DELETE", "id": ids[STEAK]},
        )

    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    lisbon, steak = scope.remember(LISBON), scope.remember(STEAK)
    clock.advance(60)

    moved, vegetarian = scope.reconcile(["The user moved to Porto.", "The user went vegetarian."])

    assert (moved.event, moved.item.text, moved.before) == ("supersede", PORTO, LISBON)
    assert (moved.replaced.key, moved.replaced.value["superseded_by"]) == (
        lisbon.key,
        moved.item.key,
    )
    assert moved.replaced.valid_to == moved.item.valid_from
    assert (vegetarian.event, vegetarian.item.key, vegetarian.before) == ("close", steak.key, STEAK)
    assert vegetarian.item.valid_to is not None and vegetarian.replaced is None
    assert [item.text for item in scope.list()] == [PORTO]
