"""Every scored result says what its score is, and a cosine score is the cosine."""

import numpy as np
import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore

NS = ("users", "alice")


@pytest.mark.parametrize(
    ("mode", "kind"), [("dense", "cosine"), ("lexical", "bm25"), ("hybrid", "hybrid")]
)
def test_score_type_follows_the_mode(mode, kind):
    embedder = HashingEmbedder(64)
    store = MemoryStore(backend=InMemoryBackend(), embedder=embedder)
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    (item,) = store.search(NS, query="green tea", mode=mode)
    assert item.score_type == kind
    if kind == "cosine":
        a = np.array(embedder.embed_query("green tea"))
        b = np.array(embedder.embed_documents(["Alice drinks green tea"])[0])
        assert item.score == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    (listed,) = store.search(NS)
    assert listed.score is None and listed.score_type is None
