"""With a query, the most similar items come first with a score; without, the newest first."""

import pytest

from memvault import InvalidArgumentError

NS = ("users", "alice")


def test_query_ranks_the_matching_memory_first(store):
    store.put(NS, "tea", {"text": "alice drinks green tea every morning"})
    store.put(NS, "dog", {"text": "alice has a dog named rex"})
    store.put(NS, "job", {"text": "alice works as a nurse in lisbon"})
    hits = store.search(NS, query="what is the name of the dog")
    assert [h.key for h in hits][0] == "dog"
    assert all(h.score is not None for h in hits)
    assert hits == sorted(hits, key=lambda h: -h.score)
    assert -1.0 <= hits[-1].score <= hits[0].score <= 1.0 + 1e-6


def test_without_query_newest_first_with_limit_and_offset(store, clock):
    for number in range(5):
        store.put(NS, f"k{number}", {"text": f"memory number {number}"})
        clock.advance(1)
    assert [h.key for h in store.search(NS)] == ["k4", "k3", "k2", "k1", "k0"]
    assert [h.key for h in store.search(NS, limit=2, offset=1)] == ["k3", "k2"]
    assert [h.key for h in store.search(NS, query="   ")][:1] == ["k4"]  # blank: recency
    assert all(h.score is None for h in store.search(NS))


def test_query_pages_do_not_overlap(store):
    words = ["green", "black", "mint", "herbal", "iced", "milk"]
    for number, word in enumerate(words):
        store.put(NS, f"k{number}", {"text": f"{word} tea {'tea ' * number}"})
    first = store.search(NS, query="tea", limit=3)
    second = store.search(NS, query="tea", limit=3, offset=3)
    assert len(first) == len(second) == 3
    assert {h.key for h in first}.isdisjoint({h.key for h in second})


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 10**20}, "limit"),
        ({"offset": -1}, "offset"),
        ({"query": 3}, "query"),
        ({"query": "tea", "mode": "fuzzy"}, "mode"),
    ],
)
def test_bad_search_options_are_named(store, options, field):
    with pytest.raises(InvalidArgumentError, match=field):
        store.search(NS, **options)
