"""Any LangChain Embeddings can be memvault's embedder, and the store remembers which one."""

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_memvault import MemvaultEmbeddings, MemvaultRetriever
from langgraph.store.memory import InMemoryStore

from memvault import EmbedderMismatchError, HashingEmbedder, MemoryStore


def test_a_langchain_embeddings_is_used_for_storing_and_searching(tmp_path):
    embeddings = DeterministicFakeEmbedding(size=32)
    store = MemoryStore(tmp_path, embedder=embeddings, search_mode="dense")
    store.put(("users", "ada"), "tea", {"text": "Ada drinks green tea"})
    store.put(("users", "ada"), "city", {"text": "Ada lives in Lisbon"})
    assert store.embedder.dim == 32
    # the fake embeds equal texts equally, so the exact text is the best match
    docs = MemvaultRetriever(store=store, namespace=("users", "ada"), k=1).invoke(
        "Ada lives in Lisbon"
    )
    assert docs[0].metadata["key"] == "city"
    assert docs[0].metadata["score"] == pytest.approx(1.0)
    store.close()
    with pytest.raises(EmbedderMismatchError):
        MemoryStore(tmp_path, embedder=HashingEmbedder(32))


def test_memvault_embedder_serves_langgraph_in_memory_store():
    embeddings = MemvaultEmbeddings(HashingEmbedder(64))
    store = InMemoryStore(index={"dims": embeddings.dim, "embed": embeddings})
    store.put(("docs",), "a", {"text": "green tea"})
    store.put(("docs",), "b", {"text": "red car"})
    assert store.search(("docs",), query="tea please", limit=1)[0].key == "a"
    assert embeddings.embed_query("green tea") == HashingEmbedder(64).embed_query("green tea")
