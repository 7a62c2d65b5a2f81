"""put_many embeds once, splits large batches for the backend, and writes nothing on bad input."""

import pytest

from memvault import InvalidKeyError, InvalidValueError

NS = ("bulk",)


def test_large_batch_is_stored_whole(store):
    if hasattr(store.backend, "max_batch"):
        store.backend.max_batch = 7  # force several Chroma writes
    items = [(f"k{n}", {"text": f"memory {n}", "n": n}) for n in range(30)]
    stored = store.put_many(NS, items)
    assert [i.key for i in stored] == [k for k, _ in items]
    assert store.count(NS) == 30
    assert store.get(NS, "k29").value["n"] == 29


def test_repeated_key_keeps_last_value(store):
    store.put_many(NS, [("k", {"text": "first"}), ("k", {"text": "second"})])
    assert store.get(NS, "k").text == "second" and store.count() == 1


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (("k2", {"text": ""}), InvalidValueError, "text"),
        (("k2", {"body": "no text"}), InvalidValueError, "text"),
        (("k2", {"text": "x", "when": (1, 2)}), InvalidValueError, "round-trip"),
        (("k2", {"text": "x", "obj": object()}), InvalidValueError, "JSON"),
        (("k2", {"text": "x", 1: "int key"}), InvalidValueError, "round-trip"),
        (("k2", {"text": "x", "nan": float("nan")}), InvalidValueError, "JSON"),
        (("k2", "just text"), InvalidValueError, "dict"),
        (("", {"text": "x"}), InvalidKeyError, "key"),
        (("k2", {"text": "lone \ud800 surrogate"}), InvalidValueError, "JSON"),
        (("k\ud800", {"text": "x"}), InvalidKeyError, "UTF-8"),
    ],
)
def test_one_bad_item_writes_nothing(store, bad, error, message):
    store.put(NS, "kept", {"text": "already here", "v": 1})
    with pytest.raises(error, match=message):
        store.put_many(NS, [("k1", {"text": "fine"}), bad, ("kept", {"text": "changed"})])
    assert store.count() == 1
    assert store.get(NS, "kept").value == {"text": "already here", "v": 1}
