"""Paging through hybrid results never repeats or skips an item, at any depth: every page is a
slice of one order (the fused top of both rankings, then the rest in dense order), on the
default search and on Postgres's own (records carried by its ranking statement, the others
read after it)."""

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.backends import PostgresBackend
from memvault.fusion import FUSION_DEPTH
from tests.postgres import fresh_schema

NS = ("users", "alice")
FRUITS = ["apple", "pear", "plum", "fig", "kiwi", "mango", "lime", "date", "grape", "melon"]
SIZE = 2 * FUSION_DEPTH + 50  # deeper than the fused block can reach


@pytest.fixture(scope="module", params=["in-memory", "postgres"])
def store(request):
    backend = (
        InMemoryBackend()
        if request.param == "in-memory"
        else PostgresBackend(request.getfixturevalue("postgres_dsn"), schema=fresh_schema())
    )
    with MemoryStore(backend=backend, embedder=HashingEmbedder(64)) as store:
        store.put_many(
            NS,
            [
                (f"k{n}", {"text": f"Alice ate a {FRUITS[n % 10]} on day {n} with friend {n % 7}"})
                for n in range(SIZE)
            ],
        )
        yield store


@pytest.mark.parametrize("page_size", [10, 7, 64])
def test_pages_concatenate_to_one_call_and_hold_every_item_once(store, page_size):
    query = "what fruit did alice eat with friend 3?"
    whole = [i.key for i in store.search(NS, query=query, limit=SIZE)]
    paged = [
        i.key
        for offset in range(0, SIZE, page_size)
        for i in store.search(NS, query=query, limit=page_size, offset=offset)
    ]
    assert paged == whole
    assert sorted(paged) == sorted(f"k{n}" for n in range(SIZE))


def test_scores_never_rise_down_the_order(store):
    found = store.search(NS, query="plum on day 12", limit=SIZE)
    scores = [i.score for i in found]
    assert scores == sorted(scores, reverse=True)
    assert all(i.score_type == "hybrid" for i in found)
