"""Forgetting by description reaches a memory that no longer holds (closed by a supersede),
as it reaches current ones: a superseded memory still says what it said, and a recall as of
a past time would bring it back."""

from datetime import datetime, timezone

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.testing import FakeClock

MARCH = datetime(2023, 3, 1, tzinfo=timezone.utc)


def test_a_superseded_memory_is_forgotten_by_description():
    clock = FakeClock(MARCH.timestamp())
    store = MemoryStore(
        embedder=HashingEmbedder(dim=256), backend=InMemoryBackend(), clock=clock.time
    )
    scope = AgentMemory(store).scope(user_id="ada")
    lisbon = scope.remember("The user lives in Lisbon.")
    clock.advance(86_400 * 90)
    scope.supersede(lisbon.key, "The user lives in Porto.")

    removed = scope.forget("that I live in Lisbon")

    assert [item.key for item in removed] == [lisbon.key]
    assert scope.list(as_of=MARCH.timestamp() + 60) == []
    assert [item.text for item in scope.list()] == ["The user lives in Porto."]
