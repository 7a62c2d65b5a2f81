"""Hybrid search (the default) returns what either index finds, fused by normalised scores."""

import pytest

from memvault import FunctionEmbedder, InMemoryBackend, InvalidArgumentError, MemoryStore
from memvault.fusion import LEXICAL_WEIGHT, blend
from memvault.store import DEFAULT_SEARCH_MODE

NS = ("users", "alice")
# A scripted "semantic" embedder: texts about pets point one way, everything else another.
PET_WORDS = ("dog", "puppy", "pet", "rex")


def scripted(texts):
    return [[1.0, 0.0] if any(w in t.lower() for w in PET_WORDS) else [0.0, 1.0] for t in texts]


@pytest.fixture
def store():
    embedder = FunctionEmbedder(scripted, name="scripted-2d", dim=2)
    with MemoryStore(backend=InMemoryBackend(), embedder=embedder) as store:
        store.put(NS, "pet", {"text": "Alice adopted a puppy last spring"})
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
        store.put(NS, "job", {"text": "Alice works as a nurse"})
        yield store


def test_hybrid_finds_what_only_one_index_finds(store):
    # "pet" matches the embedding only (no shared word); "nurse" matches the words only.
    query = "tell me about her pet and the nurse job"
    assert store.search(NS, query=query, mode="lexical", limit=1)[0].key == "job"
    assert store.search(NS, query=query, mode="dense", limit=1)[0].key == "pet"
    top_two = {hit.key for hit in store.search(NS, query=query, limit=2)}
    assert top_two == {"pet", "job"}


def test_hybrid_is_the_default_and_scores_are_fused_ranks(store):
    assert DEFAULT_SEARCH_MODE == "hybrid"
    query = "green tea"
    default = store.search(NS, query=query)
    assert default == store.search(NS, query=query, mode="hybrid")
    # Dense ties "job" and "tea" at the top (normalised 1); "tea" is the only lexical match
    # (normalised 1, the best of a list of one) and so kept first: (1 + weight * 1 +
    # (1 - weight) * 1) / 2 = 1.
    assert default[0].key == "tea"
    assert default[0].score == pytest.approx(1.0)


def test_hybrid_pages_concatenate_to_the_full_ranking(store):
    whole = [hit.key for hit in store.search(NS, query="alice", limit=3)]
    pages = [
        hit.key
        for offset in range(3)
        for hit in store.search(NS, query="alice", limit=1, offset=offset)
    ]
    assert pages == whole and sorted(whole) == ["job", "pet", "tea"]


def test_bad_mode_is_named(store):
    with pytest.raises(
        InvalidArgumentError, match="mode must be one of 'hybrid', 'dense', 'lexical'"
    ):
        store.search(NS, query="tea", mode="bm25")


def test_blend_adds_normalised_scores_and_keeps_the_lexical_first_on_top():
    dense = [("a", 0.9), ("b", 0.5), ("c", 0.1)]
    lexical = [("c", 8.0), ("b", 6.0), ("d", 2.0)]
    fused = dict(blend(dense, lexical, weight=0.5))
    assert fused == pytest.approx(
        {"a": 0.5 / 2, "b": (0.5 * 0.5 + 0.5 * 4 / 6) / 2, "c": (1 + 0.5) / 2, "d": 0.0}
    )
    # "a" (dense first) ties "c" (lexical first) on scores alone, but "c" stays first.
    assert [i for i, _ in blend(dense, lexical, weight=0.5)] == ["c", "b", "a", "d"]


def test_a_ranking_whose_scores_are_all_equal_counts_each_as_its_best():
    fused = dict(blend([("a", 0.5), ("b", 0.5)], [("b", 3.0)], weight=LEXICAL_WEIGHT))
    assert fused == pytest.approx({"b": 1.0, "a": (1 - LEXICAL_WEIGHT) / 2})
