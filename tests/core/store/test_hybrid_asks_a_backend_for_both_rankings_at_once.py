"""A hybrid search asks its backend once for both rankings (one round trip on a database
server), and a page past the fused block asks the dense ranking for the rest."""

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.fusion import FUSION_DEPTH

NS = ("users", "alice")
FRUITS = ["apple", "pear", "plum", "fig", "kiwi", "mango", "lime", "date", "grape", "melon"]
SIZE = FUSION_DEPTH + 60  # a deep page reaches past the fused block
WRITTEN_AT = 1_700_000_000.0  # both stores' items alike


class OneQueryBackend(InMemoryBackend):
    """Answers both rankings in one call; counts how it is asked."""

    def __init__(self):
        super().__init__()
        self.calls: list[str] = []

    def both_rankings(self, query, prefix, *, embedding, clauses, now, valid, limit):
        self.calls.append("both_rankings")
        dense = super().dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        lexical = super().lexical(query, prefix, clauses=clauses, now=now, valid=valid, limit=limit)
        return dense, lexical

    def dense(self, prefix, *, embedding, clauses, now, valid, limit):
        self.calls.append("dense")
        return super().dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )

    def lexical(self, query, prefix, *, clauses, now, valid, limit):
        self.calls.append("lexical")
        return super().lexical(query, prefix, clauses=clauses, now=now, valid=valid, limit=limit)


@pytest.fixture
def stores():
    items = [
        (f"k{n}", {"text": f"Alice ate a {FRUITS[n % 10]} on day {n}", "even": n % 2 == 0})
        for n in range(SIZE)
    ]
    one, two = OneQueryBackend(), InMemoryBackend()
    with (
        MemoryStore(backend=one, embedder=HashingEmbedder(64)) as fused_once,
        MemoryStore(backend=two, embedder=HashingEmbedder(64)) as fused_apart,
    ):
        fused_once.put_many(NS, items, timestamp=WRITTEN_AT)
        fused_apart.put_many(NS, items, timestamp=WRITTEN_AT)
        one.calls.clear()
        yield one, fused_once, fused_apart


@pytest.mark.parametrize(
    ("query", "filter", "limit", "offset"),
    [
        ("which fruit did alice eat on day 12?", None, 10, 0),
        ("plum", {"even": True}, 5, 3),
        ("zebra", None, 10, 0),  # no lexical match: the dense ranking alone
    ],
)
def test_one_call_gives_the_results_of_two(stores, query, filter, limit, offset):
    backend, fused_once, fused_apart = stores
    options = dict(query=query, filter=filter, limit=limit, offset=offset)
    assert fused_once.search(NS, **options) == fused_apart.search(NS, **options)
    assert backend.calls == ["both_rankings"]


def test_a_page_past_the_fused_block_asks_the_dense_ranking_for_the_rest(stores):
    backend, fused_once, fused_apart = stores
    options = dict(query="grape", limit=20, offset=SIZE - 20)
    assert fused_once.search(NS, **options) == fused_apart.search(NS, **options)
    assert backend.calls == ["both_rankings", "dense"]


def test_other_modes_do_not_ask_for_both(stores):
    backend, fused_once, _ = stores
    fused_once.search(NS, query="plum", mode="dense")
    fused_once.search(NS, query="plum", mode="lexical")
    assert backend.calls == ["dense", "lexical"]
