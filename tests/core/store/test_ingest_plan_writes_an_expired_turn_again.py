"""`plan_ingest` writes again a turn whose memory expired (an expiry is the store's clock, not
anyone's choice: ingesting the file again with a TTL renews it), even one edited before it
expired, while a turn deleted since stays forgotten and one edited and live stays kept. Only
the namespace ingested into counts: a key of another namespace decides nothing."""

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.conversations import INGEST_SOURCE, Turn, plan_ingest

ALICE = ("users", "alice")


def test_an_expired_turn_is_written_again_and_a_deleted_one_is_not():
    now = [1_000.0]
    store = MemoryStore(
        backend=InMemoryBackend(), embedder=HashingEmbedder(64), clock=lambda: now[0]
    )
    turns = [
        Turn(key=f"chat:{n}", text=f"turn {n}", speaker="user", turn_id=str(n))
        for n in (1, 2, 3, 4)
    ]
    store.put_many(ALICE, [(t.key, t.value()) for t in turns[:3]], source=INGEST_SOURCE)
    store.put(ALICE, "chat:1", {"text": "edited, then expired"}, source="ui", ttl=10)
    store.put(ALICE, "chat:2", {"text": "edited, live"}, source="ui")
    store.delete(ALICE, "chat:3", source="ui")
    store.put(("users", "bob"), "chat:4", {"text": "bob's"}, source="ui")
    now[0] += 60
    store.cleanup()
    assert store.history(ALICE, "chat:1")[-1].event == "expire"

    plan = plan_ingest(store, ALICE, turns)

    assert [t.key for t in plan.write] == ["chat:1", "chat:4"]
    assert plan.kept == ["chat:2"]
    assert plan.forgotten == ["chat:3"]
