"""MemvaultRetriever: Documents carry the memory's text, key, namespace, score, times, metadata."""

import pytest
from langchain_core.documents import Document
from langchain_memvault import MemvaultRetriever

from memvault import InvalidArgumentError
from tests.langchain.fakes import small_store


@pytest.fixture
def store():
    store = small_store()
    store.put(("users", "ada"), "tea", {"text": "Ada drinks green tea", "topic": "food"})
    store.put(("users", "ada", "work"), "job", {"text": "Ada works as a nurse", "topic": "work"})
    store.put(("users", "bob"), "car", {"text": "Bob drinks black coffee", "topic": "food"})
    return store


def test_documents_hold_text_and_memory_metadata(store):
    retriever = MemvaultRetriever(store=store, namespace=("users", "ada"), k=5)
    docs = retriever.invoke("what does Ada drink?")
    assert [d.page_content for d in docs] == ["Ada drinks green tea", "Ada works as a nurse"]
    tea = store.get(("users", "ada"), "tea")
    first = docs[0]
    assert isinstance(first, Document) and first.id == "tea"
    assert first.metadata["topic"] == "food"
    assert first.metadata["key"] == "tea"
    assert first.metadata["namespace"] == ("users", "ada")
    assert first.metadata["created_at"] == tea.created_at
    assert first.metadata["updated_at"] == tea.updated_at
    assert first.metadata["score_type"] == store.search(("users", "ada"), query="tea")[0].score_type
    assert first.metadata["score_type"] in ("cosine", "bm25", "hybrid")
    assert first.metadata["score"] > 0
    assert docs[1].metadata["namespace"] == ("users", "ada", "work")


async def test_k_and_filter_are_overridden_per_call(store):
    retriever = MemvaultRetriever(store=store, namespace=("users",), k=3, filter={"topic": "food"})
    assert {d.metadata["key"] for d in retriever.invoke("drinks")} == {"tea", "car"}
    assert len(retriever.invoke("drinks", k=1)) == 1
    assert [d.metadata["key"] for d in retriever.invoke("drinks", filter={"topic": "work"})] == [
        "job"
    ]
    assert len(await retriever.ainvoke("drinks", filter={})) == 3
    with pytest.raises(InvalidArgumentError, match="k must be"):
        retriever.invoke("drinks", k=0)
