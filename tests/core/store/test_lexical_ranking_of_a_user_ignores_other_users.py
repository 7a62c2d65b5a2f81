"""One user's lexical ranking and scores depend on that user's memories, not on other users'.

BM25 takes its statistics (record count, mean length, how many records hold a word) from the
namespace searched (``memvault.lexical``), so adding users whose memories share or repeat the
query's words changes nothing in another user's results.
"""

import pytest

from memvault import ChromaBackend, HashingEmbedder, InMemoryBackend, MemoryStore

ALICE = ("users", "alice")
ALICE_MEMORIES = {
    "tea": "Alice drinks green tea every morning",
    "kayak": "Alice bought a red kayak for the lake",
    "tea-shop": "The tea shop near the station sells oolong and green tea",
    "dog": "Alice has a dog named Rex",
}


@pytest.fixture(params=["memory", "chroma"])
def store(request, tmp_path):
    backend = InMemoryBackend() if request.param == "memory" else ChromaBackend(tmp_path / "db")
    with MemoryStore(backend=backend, embedder=HashingEmbedder(64)) as store:
        store.put_many(ALICE, [(key, {"text": text}) for key, text in ALICE_MEMORIES.items()])
        yield store


def ranking(store, query):
    return [
        (hit.key, round(hit.score, 9)) for hit in store.search(ALICE, query=query, mode="lexical")
    ]


def test_other_users_memories_leave_a_users_ranking_and_scores_unchanged(store):
    before = ranking(store, "green tea kayak")
    assert sorted(key for key, _ in before) == ["kayak", "tea", "tea-shop"]

    for user in range(30):  # other users say "tea" a lot, and never "kayak"
        store.put_many(
            ("users", f"u{user}"),
            [(f"m{i}", {"text": f"tea tea green tea number {i}"}) for i in range(20)],
        )

    assert ranking(store, "green tea kayak") == before


def test_a_word_in_half_of_a_users_memories_still_counts(store):
    """Lucene's idf: "tea" in two of four memories ranks them above the others, score > 0."""
    hits = ranking(store, "tea")
    assert [key for key, _ in hits] == ["tea-shop", "tea"]
    assert all(score > 0.5 for _, score in hits)


def test_the_statistics_are_those_of_the_searched_prefix(store):
    store.put(("users", "bob"), "tea", {"text": "Bob drinks tea"})
    alice_alone = ranking(store, "tea")
    both = [
        (hit.key, hit.namespace) for hit in store.search(("users",), query="tea", mode="lexical")
    ]

    assert [key for key, _ in alice_alone] == ["tea-shop", "tea"]  # "tea" twice ranks first
    assert ("tea", ("users", "bob")) in both and len(both) == 3
