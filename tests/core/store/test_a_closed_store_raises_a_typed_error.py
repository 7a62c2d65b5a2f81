"""Using a store after close() raises StoreClosedError; closing twice does nothing."""

import pytest

from memvault import HashingEmbedder, MemoryStore
from memvault.errors import StoreClosedError

NS = ("users", "alice")


def test_a_closed_store_says_so(tmp_path):
    store = MemoryStore(tmp_path, embedder=HashingEmbedder(64))
    store.put(NS, "k", {"text": "tea"})
    store.close()
    store.close()  # twice is fine
    for call in (
        lambda: store.get(NS, "k"),
        lambda: store.put(NS, "k", {"text": "x"}),
        lambda: store.search(NS, query="tea"),
        lambda: store.count(),
    ):
        with pytest.raises(StoreClosedError, match="closed"):
            call()
