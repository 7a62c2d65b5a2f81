"""`MemoryStore.supersede` reads the memory it closes and the one that replaces it once (one
`backend.get`, one round trip on a database server) before its one write, and writes what
it read: the closed memory and the link on the new one, with their history."""

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore

NS = ("users", "alice")
START = 1_700_000_000.0


class CountingBackend(InMemoryBackend):
    """Records the ids each ``get`` asks for."""

    def __init__(self):
        super().__init__()
        self.reads: list[list[str]] = []

    def get(self, ids):
        self.reads.append(list(ids))
        return super().get(ids)


def test_supersede_reads_both_memories_once():
    backend, now = CountingBackend(), [START]
    store = MemoryStore(backend=backend, embedder=HashingEmbedder(), clock=lambda: now[0])
    store.put(NS, "home-1", {"text": "Alice lives in Lisbon"})
    now[0] += 60
    store.put(NS, "home-2", {"text": "Alice moved to Porto"})
    now[0] += 60
    backend.reads.clear()

    closed = store.supersede(NS, "home-1", by="home-2")

    assert len(backend.reads) == 1 and len(backend.reads[0]) == 2
    assert closed.valid_to == START + 60 and closed.value["superseded_by"] == "home-2"
    assert store.get(NS, "home-2").value["supersedes"] == "home-1"
    assert [e.event for e in store.history(NS, "home-1")] == ["add", "update"]
    assert [e.event for e in store.history(NS, "home-2")] == ["add", "update"]
