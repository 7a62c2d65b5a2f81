"""Lexical and hybrid search honour namespace prefixes, expiry and filters as dense search does."""

import pytest

from memvault import ChromaBackend, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.testing import FakeClock


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture(params=["memory", "chroma"])
def store(request, tmp_path, clock):
    backend = InMemoryBackend() if request.param == "memory" else ChromaBackend(tmp_path / "db")
    with MemoryStore(backend=backend, embedder=HashingEmbedder(64), clock=clock.time) as store:
        yield store


MODES = ["hybrid", "dense", "lexical"]


@pytest.mark.parametrize("mode", MODES)
def test_namespace_prefix_is_segment_wise(store, mode):
    store.put(("users", "alice"), "a", {"text": "tea in the garden"})
    store.put(("users", "alice", "work"), "b", {"text": "tea at the office"})
    store.put(("users", "al"), "c", {"text": "tea on the train"})
    store.put(("users2",), "d", {"text": "tea at home"})
    found = store.search(("users", "alice"), query="tea", mode=mode)
    assert sorted(hit.key for hit in found) == ["a", "b"]
    assert len(store.search((), query="tea", mode=mode)) == 4


@pytest.mark.parametrize("mode", MODES)
def test_expired_items_are_never_found(store, mode, clock):
    store.put(("n",), "brief", {"text": "tea tea tea"}, ttl=60)
    store.put(("n",), "lasting", {"text": "tea and biscuits"})
    clock.advance(61)
    assert [hit.key for hit in store.search(("n",), query="tea", mode=mode)] == ["lasting"]


FILTERS = [
    {"speaker": "Caroline"},
    {"speaker": {"$ne": "Caroline"}},
    {"session": {"$gte": 2}},
    {"session": {"$in": [1, 3]}, "speaker": {"$nin": ["Melanie"]}},
    {"pinned": True},
]


@pytest.mark.parametrize("filter", FILTERS)
def test_filters_select_the_same_items_in_every_mode(store, filter):
    rows = [
        ("t1", {"text": "tea with Mel", "speaker": "Caroline", "session": 1}),
        ("t2", {"text": "tea is great", "speaker": "Melanie", "session": 1, "pinned": True}),
        ("t3", {"text": "more tea", "speaker": "Caroline", "session": 2.0, "pinned": 1}),
        ("t4", {"text": "tea again", "speaker": "Melanie", "session": 3}),
        ("t5", {"text": "tea, no speaker", "session": 3}),
    ]
    store.put_many(("chat",), rows)
    found = {
        mode: sorted(
            hit.key for hit in store.search(("chat",), query="tea", filter=filter, mode=mode)
        )
        for mode in MODES
    }
    assert found["lexical"] == found["dense"] == found["hybrid"]
    assert found["lexical"], filter


def test_filter_applies_before_limit_in_lexical_mode(store):
    rows = [(f"m{i}", {"text": "tea " * (10 - i), "speaker": "Melanie"}) for i in range(6)]
    rows += [(f"c{i}", {"text": "tea", "speaker": "Caroline"}) for i in range(3)]
    store.put_many(("chat",), rows)
    found = store.search(
        ("chat",), query="tea", filter={"speaker": "Caroline"}, limit=2, mode="lexical"
    )
    assert len(found) == 2 and all(hit.value["speaker"] == "Caroline" for hit in found)
