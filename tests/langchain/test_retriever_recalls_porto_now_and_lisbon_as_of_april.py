"""MemvaultRetriever after a move: what holds now by default, what held then with ``as_of``."""

import pytest
from langchain_memvault import MemvaultRetriever

from memvault import InvalidArgumentError
from tests.langchain.fakes import APRIL, JUNE, MARCH, moved_from_lisbon_to_porto, small_store

ADA = {"configurable": {"user_id": "ada"}}
QUESTION = "Where do I live?"


@pytest.fixture
def store():
    store = small_store()
    moved_from_lisbon_to_porto(store, ("users", "ada"))
    return store


def texts(docs):
    return [doc.page_content for doc in docs]


async def test_now_porto_only_and_as_of_april_lisbon_only(store):
    retriever = MemvaultRetriever(store=store)
    now = retriever.invoke(QUESTION, ADA)
    assert texts(now) == ["I moved to Porto."]
    assert now[0].metadata["valid_from"] == JUNE.timestamp()
    assert now[0].metadata["valid_to"] is None
    assert now[0].metadata["supersedes"] == "lisbon"

    then = retriever.invoke(QUESTION, ADA, as_of=APRIL)
    assert texts(then) == ["I live in Lisbon."]
    assert then[0].metadata["valid_from"] == MARCH.timestamp()
    assert then[0].metadata["valid_to"] == JUNE.timestamp()
    assert then[0].metadata["superseded_by"] == "porto"
    assert texts(await retriever.ainvoke(QUESTION, ADA, as_of=APRIL.timestamp())) == [
        "I live in Lisbon."
    ]


def test_as_of_comes_from_the_field_search_kwargs_or_the_call(store):
    april = MemvaultRetriever(store=store, as_of=APRIL)
    assert texts(april.invoke(QUESTION, ADA)) == ["I live in Lisbon."]
    assert texts(april.invoke(QUESTION, ADA, as_of=JUNE)) == ["I moved to Porto."]
    kwargs = MemvaultRetriever(store=store, search_kwargs={"as_of": APRIL.timestamp()})
    assert texts(kwargs.invoke(QUESTION, ADA)) == ["I live in Lisbon."]


def test_a_bad_as_of_is_refused_naming_it(store):
    with pytest.raises(InvalidArgumentError, match="as_of"):
        MemvaultRetriever(store=store, as_of=-1.0)
    with pytest.raises(InvalidArgumentError, match="as_of"):
        MemvaultRetriever(store=store, search_kwargs={"as_of": "April"})
    with pytest.raises(InvalidArgumentError, match="as_of"):
        MemvaultRetriever(store=store).invoke(QUESTION, ADA, as_of="April")
