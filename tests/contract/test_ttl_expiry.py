"""Expired items are never returned, even before cleanup, and cleanup deletes them."""

import pytest

from memvault import InvalidArgumentError

NS = ("users", "alice")


def test_expired_items_vanish_from_every_read(store, clock):
    store.put(NS, "short", {"text": "tea tea tea"}, ttl=10)
    store.put(NS, "long", {"text": "tea"}, ttl=1000)
    store.put(NS, "forever", {"text": "coffee"})
    clock.advance(11)
    assert store.get(NS, "short") is None
    assert {i.key for i in store.search(NS)} == {"long", "forever"}
    assert "short" not in {i.key for i in store.search(NS, query="tea tea tea")}
    assert store.count(NS) == 2
    assert store.list_namespaces() == [NS]


def test_search_returns_k_live_items_when_expired_ones_rank_higher(store, clock):
    for number in range(5):
        store.put(NS, f"dead{number}", {"text": "tea tea tea tea"}, ttl=5)
    for number in range(3):
        store.put(NS, f"live{number}", {"text": f"tea and biscuit {number}"})
    clock.advance(6)
    hits = store.search(NS, query="tea tea tea tea", limit=3)
    assert sorted(h.key for h in hits) == ["live0", "live1", "live2"]


def test_store_default_ttl_and_per_put_override(new_store, clock):
    store = new_store(ttl=60)
    default = store.put(NS, "default", {"text": "x"})
    never = store.put(NS, "never", {"text": "y"}, ttl=None)
    assert default.expires_at == clock.now + 60
    assert never.expires_at is None
    clock.advance(61)
    assert store.get(NS, "default") is None and store.get(NS, "never") is not None


def test_cleanup_deletes_expired_and_old_items_and_counts_them(store, clock):
    store.put(NS, "expired", {"text": "x"}, ttl=1)
    store.put(NS, "old", {"text": "y"})
    clock.advance(100)
    store.put(NS, "fresh", {"text": "z"})
    assert store.cleanup() == 1
    assert store.cleanup(max_age=50) == 1
    assert [i.key for i in store.search(NS)] == ["fresh"]
    assert store.cleanup() == 0


@pytest.mark.parametrize("ttl", [0, -5, "10", True, float("inf"), float("nan"), 1e300])
def test_bad_ttl_is_rejected(store, ttl):
    with pytest.raises(InvalidArgumentError, match="ttl"):
        store.put(NS, "k", {"text": "x"}, ttl=ttl)
