"""The filter language gives the same, documented results on every backend."""

import pytest

from memvault import InvalidFilterError

NS = ("docs",)
ITEMS = {
    "a": {"text": "alpha", "n": 1, "kind": "note", "flag": True, "big": 2**53 + 1},
    "b": {"text": "beta", "n": 2.5, "kind": "fact"},
    "c": {"text": "gamma", "n": 3, "kind": "note", "flag": False},
    "d": {"text": "delta", "kind": "fact", "n": "3"},
    "e": {"text": "epsilon", "nested": {"n": 1}, "n": None},
}

CASES = [
    ({"kind": "note"}, {"a", "c"}),
    ({"kind": {"$eq": "fact"}}, {"b", "d"}),
    ({"kind": {"$ne": "note"}}, {"b", "d"}),  # e lacks "kind": no match
    ({"n": {"$gt": 1}}, {"b", "c"}),  # the string "3" is not a number
    ({"n": {"$gte": 1, "$lt": 3}}, {"a", "b"}),
    ({"n": {"$lte": 2.5}}, {"a", "b"}),
    ({"n": 3.0}, {"c"}),  # int and float compare as numbers
    ({"n": "3"}, {"d"}),  # strings only equal strings
    ({"n": {"$in": [1, "3"]}}, {"a", "d"}),  # mixed types in one list
    ({"n": {"$nin": [1, 3]}}, {"b", "d"}),  # e (None) and missing never match
    ({"flag": True}, {"a"}),
    ({"flag": 1}, set()),  # bool only equals bool
    ({"n": 1}, {"a"}),  # ... and a number never equals True
    ({"flag": {"$ne": True}}, {"c"}),
    ({"kind": "note", "n": {"$gt": 2}}, {"c"}),  # several fields: AND
    ({"missing": {"$ne": 1}}, set()),
    ({"nested": {"$eq": 1}}, set()),  # dict fields are not filterable
    ({"big": 2**53}, {"a"}),  # numbers compare as 64-bit floats on every backend
    (None, set(ITEMS)),
    ({}, set(ITEMS)),
]


@pytest.mark.parametrize(("filter", "expected"), CASES, ids=[str(c[0]) for c in CASES])
def test_filter_results(store, filter, expected):
    store.put_many(NS, ITEMS.items())
    assert {i.key for i in store.search(NS, filter=filter, limit=50)} == expected
    ranked = store.search(NS, query="alpha beta gamma", filter=filter, limit=50)
    assert {i.key for i in ranked} == expected


@pytest.mark.parametrize(
    ("filter", "message"),
    [
        ({"n": {"$regex": "x"}}, "unknown operator"),
        ({"n": {"$gt": "3"}}, "needs a number"),
        ({"n": {"$in": []}}, "non-empty list"),
        ({"n": {"$in": [[1]]}}, "str, int, float or bool"),
        ({"$and": [{"n": 1}]}, "operators go inside"),
        ({"n": {}}, "empty condition"),
        ({"n": [1, 2]}, "str, int, float or bool"),
        ("n=1", "must be a dict"),
        ({"n": {"$gt": float("nan")}}, "needs a number"),
        ({"n": float("inf")}, "finite"),
        ({"n": {"$in": [1, float("-inf")]}}, "str, int, float or bool"),
    ],
)
def test_bad_filters_raise_with_the_field(store, filter, message):
    with pytest.raises(InvalidFilterError, match=message):
        store.search(NS, filter=filter)
