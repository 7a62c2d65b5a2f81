"""search(limit=0) and list_namespaces(max_depth=0 or limit=0) answer as InMemoryStore does.

Negative values, where ``InMemoryStore`` slices from the end, are refused by memvault with a
typed error instead (deliberate: a negative count is a mistake, not a request).
"""

import pytest

from memvault import InvalidArgumentError
from tests.langchain.langgraph_pairs import paired_stores


def both(stores, method, **options):
    return [getattr(store, method)(**options) for store in stores]


def test_zero_limits_and_depths_give_what_in_memory_store_gives():
    stores = paired_stores()
    for options in [{"max_depth": 0}, {"prefix": ("docs",), "max_depth": 0}]:
        assert both(stores, "list_namespaces", **options) == [[], []]  # empty stores
    for store in stores:
        store.put(("docs", "ada"), "d1", {"text": "Python tutorial"})
        store.put(("music",), "m1", {"text": "Jazz playlist"})
    for options in [
        {"max_depth": 0},
        {"max_depth": 0, "offset": 1},
        {"max_depth": 0, "limit": 0},
        {"prefix": ("docs",), "max_depth": 0},
        {"prefix": ("nope",), "max_depth": 0},
        {"prefix": ("*", "ada"), "max_depth": 0},
        {"limit": 0},
        {"max_depth": 1},
    ]:
        mine, theirs = both(stores, "list_namespaces", **options)
        assert mine == theirs, options
    assert both(stores, "list_namespaces", max_depth=0) == [[()], [()]]
    for options in [{}, {"query": "python"}, {"filter": {"text": "Python tutorial"}}]:
        assert [store.search((), limit=0, **options) for store in stores] == [[], []]


def test_negative_counts_are_typed_errors():
    _, ours = paired_stores()
    for call in [
        lambda: ours.search((), limit=-1),
        lambda: ours.search((), query="python", offset=-1),
        lambda: ours.list_namespaces(max_depth=-1),
        lambda: ours.list_namespaces(prefix=("*",), limit=-1),
    ]:
        with pytest.raises(InvalidArgumentError, match="from 0 to"):
            call()
