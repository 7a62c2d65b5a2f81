"""Hybrid search ranks higher the memories created in a period the query names ("in May 2022")."""

from datetime import datetime, timezone

import pytest

from memvault import FunctionEmbedder, InMemoryBackend, MemoryStore

NS = ("users", "alice")


def utc(*day):
    return datetime(*day, tzinfo=timezone.utc).timestamp()


@pytest.fixture
def store():
    # Every text gets the same embedding: the dense half ranks nothing above anything else.
    embedder = FunctionEmbedder(lambda texts: [[1.0, 0.0] for _ in texts], name="flat", dim=2)
    with MemoryStore(backend=InMemoryBackend(), embedder=embedder) as store:
        for key, text, day in [
            ("2020", "I bought a bike.", (2020, 6, 1)),
            ("2021", "I bought a bike for the city.", (2021, 3, 1)),
            ("2022", "I bought a bike for the mountains.", (2022, 5, 10)),
        ]:
            store.put_many(NS, [(key, {"text": text})], timestamp=utc(*day))
        yield store


def keys(store, query):
    return [hit.key for hit in store.search(NS, query=query)]


def test_the_memory_of_the_named_month_comes_right_after_the_best_lexical_match(store):
    plain = keys(store, "Which bike did I buy?")
    assert plain == ["2020", "2021", "2022"]  # the shortest text matches "bike" best (BM25)
    assert keys(store, "Which bike did I buy in May 2022?") == ["2020", "2022", "2021"]
    assert keys(store, "Which bike did I buy on 1 March, 2021?") == ["2020", "2021", "2022"]


def test_said_a_few_days_after_the_named_day_still_counts(store):
    # "On 5 May" is answered by what was said on 10 May ("last week I bought...").
    assert keys(store, "Which bike did I buy on 5 May, 2022?") == ["2020", "2022", "2021"]
    assert keys(store, "Which bike did I buy on 5 April, 2022?") == ["2020", "2021", "2022"]


def test_a_period_with_nothing_stored_in_it_changes_no_score(store):
    def scored(query):
        return [(hit.key, hit.score) for hit in store.search(NS, query=query)]

    assert scored("Which bike did I buy in May 1999?") == scored("Which bike did I buy?")
    assert all(0 <= score <= 1 for _, score in scored("Which bike did I buy in May 2022?"))
