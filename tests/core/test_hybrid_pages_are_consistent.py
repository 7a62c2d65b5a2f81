"""Paging through hybrid results neither repeats nor skips items within a fusion pool."""

from memvault import InMemoryBackend, MemoryStore
from memvault.store import FUSION_POOL

NS = ("users", "alice")
FRUITS = ["apple", "pear", "plum", "fig", "kiwi", "mango", "lime", "date", "grape", "melon"]


def test_pages_of_ten_match_one_call_for_the_first_pool():
    store = MemoryStore(backend=InMemoryBackend())
    store.put_many(
        NS,
        [
            (f"k{n}", {"text": f"Alice ate a {FRUITS[n % 10]} on day {n} with friend {n % 7}"})
            for n in range(60)
        ],
    )
    query = "what fruit did alice eat?"
    whole = [i.key for i in store.search(NS, query=query, limit=FUSION_POOL)]
    paged = [
        i.key
        for offset in range(0, FUSION_POOL, 10)
        for i in store.search(NS, query=query, limit=10, offset=offset)
    ]
    assert paged == whole
    assert len(set(paged)) == FUSION_POOL
