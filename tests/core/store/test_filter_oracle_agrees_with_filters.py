"""The contract's filter oracle, written from the documentation of memvault.filters, agrees with
memvault.filters.matches on random values and filters: each checks the other."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.filters import matches, normalize_filter
from memvault.testing import filter_matches

FIELDS = ["n", "kind", "flag"]
scalars = st.one_of(
    st.booleans(),
    st.sampled_from(["a", "b", "1", ""]),
    st.integers(-3, 3),
    st.sampled_from([0.0, 1.0, 2.5, -1.5, 2**53, 2**53 + 1]),
)
stored = st.one_of(scalars, st.none(), st.just([1]), st.just({"n": 1}))
values = st.dictionaries(st.sampled_from(FIELDS), stored).map(lambda v: {"text": "x", **v})
numbers = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, 2.5, 2**53]))
conditions = st.one_of(
    scalars,
    st.dictionaries(st.sampled_from(["$eq", "$ne"]), scalars, min_size=1, max_size=2),
    st.dictionaries(
        st.sampled_from(["$gt", "$gte", "$lt", "$lte"]), numbers, min_size=1, max_size=2
    ),
    st.dictionaries(
        st.sampled_from(["$in", "$nin"]), st.lists(scalars, min_size=1, max_size=3), min_size=1
    ),
)
filters = st.one_of(st.none(), st.dictionaries(st.sampled_from(FIELDS), conditions, max_size=3))


@settings(max_examples=1000, deadline=None)
@given(value=values, filter=filters)
def test_oracle_agrees_with_matches(value, filter):
    assert filter_matches(value, filter) == matches(value, normalize_filter(filter))


def test_oracle_on_the_documented_rules():
    assert filter_matches({"text": "x", "n": 1}, {"n": 1.0})  # numbers as floats
    assert filter_matches({"text": "x", "n": 2**53 + 1}, {"n": 2**53})  # ... 64-bit ones
    assert not filter_matches({"text": "x", "flag": True}, {"flag": 1})  # bool only equals bool
    assert not filter_matches({"text": "x", "n": "3"}, {"n": {"$gt": 1}})  # str is no number
    assert not filter_matches({"text": "x", "n": True}, {"n": {"$gte": 0}})  # nor is a bool
    assert not filter_matches({"text": "x"}, {"n": {"$ne": 1}})  # missing: no match
    assert not filter_matches({"text": "x", "n": None}, {"n": {"$nin": [1]}})  # None: no match
    assert not filter_matches({"text": "x", "n": [1]}, {"n": {"$ne": 2}})  # list: no match
    assert filter_matches({"text": "x", "n": 2, "k": "a"}, {"n": {"$gt": 1, "$lt": 3}, "k": "a"})
    assert filter_matches({"text": "x"}, None) and filter_matches({"text": "x"}, {})
