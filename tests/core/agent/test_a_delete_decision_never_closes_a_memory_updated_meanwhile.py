"""A reconciliation's DELETE deletes the memory only in the version the model saw, atomically:
a memory another writer updates after the model's read, even just before the delete reaches
the store, survives, and the decision is dropped as stale."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from memvault.testing import FakeClock
from tests.core.models import decisions

ALICE = ("users", "alice")
NEWER = "The user lives in Porto and works in Braga."


class WriterFirst(InMemoryBackend):
    """Runs ``before_delete`` (once) as a delete arrives, before the delete itself."""

    before_delete = None

    def delete(self, ids, *, now, source, expected=()):
        hook, self.before_delete = self.before_delete, None
        if hook is not None:
            hook()
        super().delete(ids, now=now, source=source, expected=expected)


def test_a_memory_updated_just_before_the_delete_survives(caplog):
    clock = FakeClock()
    backend = WriterFirst()
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=backend, clock=clock.time)
    AgentMemory(store).scope(user_id="alice").remember("The user lives in Porto.")
    (seen,) = store.search(ALICE)

    def another_writer():
        clock.advance(1)
        store.put(ALICE, seen.key, {"text": NEWER, "kind": "fact", "mentions": 1})

    backend.before_delete = another_writer
    reconciler = Reconciler(lambda messages: decisions({"fact": 0, "event": "DELETE", "id": 0}))
    scope = AgentMemory(store, reconciler=reconciler).scope(user_id="alice")
    assert scope.reconcile(["The user moved away from Porto."]) == []
    assert backend.before_delete is None  # the other writer did write first
    assert [item.text for item in store.search(ALICE)] == [NEWER]
    assert [e.event for e in store.history(ALICE, seen.key)] == ["add", "update"]
    assert "DELETE of 'The user lives in Porto.' skipped" in caplog.text
