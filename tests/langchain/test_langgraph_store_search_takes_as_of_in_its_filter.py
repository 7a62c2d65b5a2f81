"""MemvaultLangGraphStore.search: what holds now by default; the reserved filter key
``"$as_of"`` asks what held then, through LangGraph's own search, ``SearchOp`` and batches."""

import pytest
from langchain_memvault import MemvaultLangGraphStore
from langgraph.store.base import SearchOp

from memvault import InvalidArgumentError
from tests.langchain.fakes import APRIL, moved_from_lisbon_to_porto, small_store

ADA = ("users", "ada")


@pytest.fixture
def store():
    core = small_store()
    moved_from_lisbon_to_porto(core, ADA)
    core.put(ADA, "tea", {"text": "I drink green tea.", "kind": "taste"})  # holds from now
    return MemvaultLangGraphStore(core)


def keys(items):
    return sorted(item.key for item in items)


async def test_as_of_april_finds_lisbon_and_now_finds_porto(store):
    assert keys(store.search(ADA, query="Where do I live?")) == ["porto", "tea"]
    assert keys(store.search(ADA, query="Where do I live?", filter={"$as_of": APRIL})) == ["lisbon"]
    assert keys(store.search(ADA, filter={"$as_of": APRIL.timestamp()})) == ["lisbon"]
    april = await store.asearch(ADA, query="home", filter={"$as_of": APRIL})
    assert [(item.key, item.value) for item in april] == [
        ("lisbon", {"text": "I live in Lisbon.", "superseded_by": "porto"})
    ]


def test_as_of_combines_with_field_filters_and_travels_in_a_search_op(store):
    assert keys(store.search(ADA, filter={"kind": "taste"})) == ["tea"]
    assert keys(store.search(ADA, filter={"$as_of": APRIL, "kind": "taste"})) == []
    (found,) = store.batch([SearchOp(ADA, filter={"$as_of": "2023-04-15"}, query="city")])
    assert keys(found) == ["lisbon"]


def test_a_bad_as_of_is_refused_naming_it(store):
    for bad in ("April", -1, True):
        with pytest.raises(InvalidArgumentError, match=r"\$as_of"):
            store.search(ADA, filter={"$as_of": bad})
