"""A namespace segment that is only whitespace, such as `("users", " ")` (a user id that went
missing), is refused like an empty one (issue 29): `InvalidNamespaceError` naming the segment,
whether written, searched or given as a path, and nothing is written."""

import re

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidNamespaceError
from memvault.namespace import parse_namespace_path, resolve_namespace


@pytest.mark.parametrize("segment", [" ", "\t", "  \n "])
def test_blank_segment_is_refused_everywhere(segment):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    named = re.escape(f"segment 1 is blank ({segment!r})")

    with pytest.raises(InvalidNamespaceError, match=named):
        store.put(("users", segment), "tea", {"text": "Alice drinks green tea"})
    with pytest.raises(InvalidNamespaceError, match=named):
        store.search(("users", segment), query="tea")
    with pytest.raises(InvalidNamespaceError, match=named):
        parse_namespace_path(f"users/{segment}")
    with pytest.raises(InvalidNamespaceError, match=named):
        resolve_namespace(("users", "{user_id}"), {"user_id": segment})
    assert store.count() == 0
