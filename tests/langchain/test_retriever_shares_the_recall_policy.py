"""MemvaultRetriever recalls as the middleware does: each thing said once, statements first."""

from langchain_memvault import MemvaultRetriever

from memvault import AgentMemory
from tests.langchain.fakes import small_store


def test_duplicates_come_back_once_and_statements_before_questions():
    store = small_store()
    store.put_many(
        ("users", "ada"),
        [
            ("q", {"text": "Which tea is good for sleep?"}),
            ("a", {"text": "Ada drinks chamomile tea."}),
            ("b", {"text": "  ada drinks CHAMOMILE tea"}),
            ("c", {"text": "Ada drinks green tea in the morning."}),
        ],
    )
    retriever = MemvaultRetriever(store=store, namespace=("users", "ada"), k=5)
    docs = retriever.invoke("tea")
    texts = [d.page_content for d in docs]
    assert len(texts) == 3
    assert sum(t.casefold().strip().startswith("ada drinks chamomile") for t in texts) == 1
    assert texts[-1] == "Which tea is good for sleep?"  # a stored question comes last
    memory = AgentMemory(store, ("users", "ada"), k=5)
    assert [d.metadata["key"] for d in docs] == [i.key for i in memory.scope().recall("tea")]
