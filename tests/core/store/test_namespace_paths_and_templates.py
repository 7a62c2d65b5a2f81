"""CLI namespace paths round-trip any segments; templates resolve only from real values."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memvault import resolve_namespace
from memvault.errors import InvalidNamespaceError
from memvault.namespace import format_namespace_path, parse_namespace_path

segments = st.text(min_size=1).filter(lambda s: "\x00" not in s and s.strip())


@given(st.lists(segments, min_size=1, max_size=4).map(tuple))
def test_path_round_trips(namespace):
    assert parse_namespace_path(format_namespace_path(namespace)) == namespace


def test_slash_in_a_segment_is_escaped():
    assert parse_namespace_path("users/a\\/b") == ("users", "a/b")
    assert format_namespace_path(("users", "a/b")) == "users/a\\/b"
    with pytest.raises(InvalidNamespaceError, match="segment 1 is empty"):
        parse_namespace_path("users//alice")
    for unknown in ("users/a\\x", "users\\"):
        with pytest.raises(InvalidNamespaceError, match="only"):
            parse_namespace_path(unknown)


def test_template_resolves_from_values():
    template = ("users", "{user_id}", "threads", "{thread_id}")
    assert resolve_namespace(template, {"user_id": "alice", "thread_id": "t1"}) == (
        "users",
        "alice",
        "threads",
        "t1",
    )
    assert resolve_namespace(("shared",), {}) == ("shared",)


@pytest.mark.parametrize("values", [{}, {"user_id": ""}, {"user_id": None}, {"user_id": 7}])
def test_missing_or_bad_value_never_gives_a_shared_namespace(values):
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        resolve_namespace(("users", "{user_id}"), values)


def test_positional_fields_are_refused():
    with pytest.raises(InvalidNamespaceError, match="named fields"):
        resolve_namespace(("users", "{}"), {"": "x"})
