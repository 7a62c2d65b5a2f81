"""Search, list and count cover a namespace and everything below it, segment by segment."""

import pytest

from memvault import InvalidNamespaceError


@pytest.fixture
def filled(store):
    for namespace in [("users", "al"), ("users", "alice"), ("users", "alice", "work"), ("users2",)]:
        store.put(namespace, "k", {"text": f"memory in {'/'.join(namespace)}"})
    return store


def test_prefix_covers_namespace_and_below_only(filled):
    found = {item.namespace for item in filled.search(("users", "alice"))}
    assert found == {("users", "alice"), ("users", "alice", "work")}
    assert filled.count(("users", "al")) == 1  # never matches ("users", "alice")
    assert filled.count(("users",)) == 3  # never matches ("users2",)
    assert filled.count() == 4


def test_query_search_respects_prefix(filled):
    found = {i.namespace for i in filled.search(("users", "al"), query="memory in users alice")}
    assert found == {("users", "al")}


def test_bad_namespaces_name_the_segment(store):
    cases = [
        ((), "at least one segment"),
        (("users", ""), "segment 1 is empty"),
        (("users", 3), "segment 1 must be a str"),
        (("a\x00b",), "NUL"),
        ("users/alice", "tuple of strings"),
    ]
    for namespace, message in cases:
        with pytest.raises(InvalidNamespaceError, match=message):
            store.put(namespace, "k", {"text": "x"})
    assert store.count() == 0
