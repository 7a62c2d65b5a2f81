"""Superseding a memory with a text that says the same is refused, whatever the memory's key.

A key written by the agent layer comes from the text (``mem-...``), but a memory put with a key
of the caller's ("porto") must be caught too: otherwise the same fact is stored again as new,
and when it began to hold is lost.
"""

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidArgumentError


def test_the_same_words_over_a_key_of_the_callers_are_refused():
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder())
    scope = AgentMemory(store).scope(user_id="alice")
    store.put(scope.namespace, "porto", {"text": "I moved to Porto."}, valid_from=1_685_700_000)

    with pytest.raises(InvalidArgumentError, match="says what the memory"):
        scope.supersede("porto", "I moved to Porto.")

    (item,) = store.search(scope.namespace)
    assert (item.key, item.valid_from, item.valid_to) == ("porto", 1_685_700_000, None)
