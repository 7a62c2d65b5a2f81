"""A reconciliation's DELETE closes the memory only in the version the model saw, atomically:
a memory another writer updates after the model's read, even just before the close reaches
the store, stays open, and the decision is dropped as stale."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from memvault.testing import FakeClock
from tests.core.models import decisions

ALICE = ("users", "alice")
NEWER = "The user lives in Porto and works in Braga."


class WriterFirst(InMemoryBackend):
    """Runs ``before_write`` (once) as a write arrives, before the write itself."""

    before_write = None

    def upsert(self, records, embeddings, *, now, change):
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        return super().upsert(records, embeddings, now=now, change=change)


def test_a_memory_updated_just_before_the_close_stays_open(caplog):
    clock = FakeClock()
    backend = WriterFirst()
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=backend, clock=clock.time)
    AgentMemory(store).scope(user_id="alice").remember("The user lives in Porto.")
    (seen,) = store.search(ALICE)

    def another_writer():
        clock.advance(1)
        store.put(ALICE, seen.key, {"text": NEWER, "kind": "fact", "mentions": 1})

    backend.before_write = another_writer
    reconciler = Reconciler(lambda messages: decisions({"fact": 0, "event": "DELETE", "id": 0}))
    scope = AgentMemory(store, reconciler=reconciler).scope(user_id="alice")
    assert scope.reconcile(["The user moved away from Porto."]) == []
    assert backend.before_write is None  # the other writer did write first
    (kept,) = store.search(ALICE)
    assert (kept.text, kept.valid_to) == (NEWER, None)
    assert [e.event for e in store.history(ALICE, seen.key)] == ["add", "update"]
    assert "DELETE of 'The user lives in Porto.' skipped" in caplog.text
