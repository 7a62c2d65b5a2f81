"""MemvaultRetriever fills its namespace template from the run and takes search_kwargs."""

import pytest
from langchain_core.runnables import RunnableLambda
from langchain_memvault import MemvaultRetriever

from memvault import InvalidArgumentError
from memvault.errors import InvalidNamespaceError
from tests.langchain.fakes import small_store

ALICE = {"configurable": {"user_id": "alice"}}


@pytest.fixture
def store():
    store = small_store()
    store.put_many(
        ("users", "alice"),
        [
            ("tea", {"text": "Alice drinks green tea.", "topic": "food"}),
            ("city", {"text": "Alice lives in Oslo.", "topic": "home"}),
            ("bike", {"text": "Alice rides a green bike.", "topic": "sport"}),
        ],
    )
    store.put(("users", "bob"), "coffee", {"text": "Bob drinks black coffee.", "topic": "food"})
    return store


def keys(docs):
    return sorted(d.metadata["key"] for d in docs)


async def test_the_template_is_filled_from_the_runs_configurable_and_fails_closed(store):
    retriever = MemvaultRetriever(store=store)  # default template ("users", "{user_id}")
    assert retriever.namespace == ("users", "{user_id}")
    assert keys(retriever.invoke("what does she drink?", config=ALICE)) == ["bike", "city", "tea"]
    bob = {"configurable": {"user_id": "bob"}}
    assert keys(await retriever.ainvoke("what does he drink?", config=bob)) == ["coffee"]
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        retriever.invoke("what does she drink?")
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        await retriever.ainvoke("what does she drink?", {"configurable": {"user_id": ""}})


def test_inside_a_chain_the_parent_runs_config_fills_the_template(store):
    retriever = MemvaultRetriever(store=store, namespace=("users", "{user_id}"))
    chain = RunnableLambda(lambda question: question.strip()) | retriever
    docs = chain.invoke("  where does she live?  ", ALICE)
    assert {d.metadata["namespace"] for d in docs} == {("users", "alice")}


async def test_search_kwargs_set_k_and_filter_and_a_call_overrides_them(store):
    one = MemvaultRetriever(store=store, search_kwargs={"k": 1})
    assert len(one.invoke("green", config=ALICE)) == 1
    assert len(await one.ainvoke("green", config=ALICE)) == 1
    assert len(one.invoke("green", config=ALICE, k=2)) == 2  # the call wins

    food = MemvaultRetriever(store=store, k=3, search_kwargs={"filter": {"topic": "food"}})
    assert keys(food.invoke("green", config=ALICE)) == ["tea"]
    assert keys(food.invoke("green", config=ALICE, filter={"topic": "sport"})) == ["bike"]

    with pytest.raises(InvalidArgumentError, match="top_k"):
        MemvaultRetriever(store=store, search_kwargs={"top_k": 1})
    with pytest.raises(InvalidArgumentError, match="top_k"):
        one.invoke("green", config=ALICE, top_k=1)
