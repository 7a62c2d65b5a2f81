"""index=False, index=[] and fields without text index nothing, as in InMemoryStore.

Such items are found by searches without a query like any other, and with a query they come
after every ranked item with score ``None``. The same puts and searches on ``InMemoryStore``
and ``MemvaultLangGraphStore`` give the same ranked items and scores and the same unranked set.
Deliberate differences: unranked items come most recently updated first (``InMemoryStore``:
in insertion order), and paging past the ranked items pages through them
(``InMemoryStore`` repeats the first unranked items on every such page).
"""

import pytest

from tests.langchain.langgraph_pairs import paired_stores, scored

NS = ("notes",)
UNRANKED = {"off", "empty", "no_text"}


@pytest.fixture
def stores():
    reference, ours = paired_stores(fields=["text"])
    for store in (reference, ours):
        store.put(NS, "python", {"text": "python tutorial"})
        store.put(NS, "rust", {"text": "rust tutorial"})
        store.put(NS, "body", {"text": "misc", "body": "python"}, index=["body"])
        store.put(NS, "off", {"text": "python guide"}, index=False)
        store.put(NS, "empty", {"text": "python notes"}, index=[])
        store.put(NS, "no_text", {"title": "python without a text field"})
    return reference, ours


def split(items):
    ranked = [(key, score) for key, score in scored(items) if score is not None]
    return ranked, [key for key, score in scored(items) if score is None]


def test_query_search_ranks_indexed_items_then_lists_the_others(stores):
    reference, ours = stores
    theirs = reference.search(NS, query="python", limit=10)
    mine = ours.search(NS, query="python", limit=10)
    (ranked, unranked), (their_ranked, their_unranked) = split(mine), split(theirs)
    assert ranked == their_ranked and [key for key, _ in ranked] == ["body", "python", "rust"]
    assert set(unranked) == set(their_unranked) == UNRANKED
    assert scored(mine)[: len(ranked)] == ranked  # ranked first
    for limit in (2, 3):
        assert scored(ours.search(NS, query="python", limit=limit)) == scored(
            reference.search(NS, query="python", limit=limit)
        )
    mine, theirs = (s.search(NS, query="python", limit=4) for s in (ours, reference))
    assert scored(mine)[:3] == scored(theirs)[:3] and mine[3].key in UNRANKED


def test_unranked_items_still_match_filters_and_searches_without_a_query(stores):
    reference, ours = stores
    for store in stores:
        (item,) = store.search(NS, query="python", filter={"text": "python guide"})
        assert (item.key, item.score) == ("off", None)
    everything = [{i.key for i in s.search(NS, limit=10)} for s in (reference, ours)]
    assert everything[0] == everything[1] == UNRANKED | {"python", "rust", "body"}


def test_pages_past_the_ranked_items_cover_each_unranked_item_once(stores):
    reference, ours = stores
    pages = [ours.search(NS, query="python", limit=2, offset=at) for at in range(0, 8, 2)]
    found = [i.key for page in pages for i in page]
    assert found[:3] == ["body", "python", "rust"] and sorted(found[3:]) == sorted(UNRANKED)
    theirs = [reference.search(NS, query="python", limit=2, offset=at) for at in (4, 6)]
    assert [i.key for i in theirs[0]] == [i.key for i in theirs[1]]  # InMemoryStore repeats
