"""A stored value comes back exactly, whatever JSON it holds, and overwrites keep created_at."""

from memvault import MemoryItem

VALUE = {
    "text": "Alice moved to Lisbon in 2024",
    "nested": {"city": "Lisbon", "since": 2024, "tags": ["move", "city"], "note": None},
    "list": [1, 2.5, "x", None, {"deep": [True, False]}],
    "empty": {},
    "unicode": "Ærø — 日本 ✓",
    "flag": False,
    "zero": 0,
}


def test_value_round_trips_exactly(store):
    stored = store.put(("users", "alice"), "move", VALUE)
    got = store.get(("users", "alice"), "move")
    assert isinstance(got, MemoryItem)
    assert got.value == VALUE
    assert type(got.value["zero"]) is int and type(got.value["list"][1]) is float
    assert got.namespace == ("users", "alice") and got.key == "move"
    assert got.created_at == stored.created_at and got.expires_at is None


def test_overwrite_keeps_created_at_and_moves_updated_at(store, clock):
    first = store.put(("users", "alice"), "k", {"text": "first", "extra": 1})
    clock.advance(30)
    store.put(("users", "alice"), "k", {"text": "second"})
    got = store.get(("users", "alice"), "k")
    assert got.value == {"text": "second"}  # the old "extra" field is gone
    assert got.created_at == first.created_at
    assert got.updated_at == first.created_at + 30
    assert store.count() == 1


def test_get_absent_is_none_and_delete_absent_is_a_no_op(store):
    assert store.get(("users", "alice"), "missing") is None
    store.delete(("users", "alice"), "missing")
    store.put(("users", "alice"), "k", {"text": "x"})
    store.delete(("users", "alice"), "k")
    assert store.get(("users", "alice"), "k") is None
    assert store.count() == 0
