"""The same LangGraph store calls on InMemoryStore and on MemvaultLangGraphStore agree."""

import pytest
from langgraph.store.base import InvalidNamespaceError

from tests.langchain.langgraph_pairs import keys, paired_stores

ITEMS = [
    (("docs", "ada"), "d1", {"text": "Python tutorial for beginners", "kind": "guide", "n": 1}),
    (("docs", "ada"), "d2", {"text": "TypeScript guide", "kind": "guide", "n": 5}),
    (("docs", "ada", "old"), "d3", {"text": "Python 2 notes", "kind": "note", "n": 3}),
    (("docs", "bob"), "d4", {"text": "Cooking with python oil", "kind": "note", "n": 9}),
    (("music", "ada"), "m1", {"text": "Jazz playlist", "meta": {"lang": "en", "stars": 4}}),
    (("music", "bob"), "m2", {"text": "Fado playlist", "meta": {"lang": "pt", "stars": 5}}),
]


@pytest.fixture
def stores():
    reference, ours = paired_stores()  # one IndexConfig; memvault searches densely (cosine)
    for store in (reference, ours):
        for namespace, key, value in ITEMS:
            store.put(namespace, key, value)
    return reference, ours


def test_get_returns_the_same_items(stores):
    reference, ours = stores
    for namespace, key, value in ITEMS:
        mine, theirs = ours.get(namespace, key), reference.get(namespace, key)
        assert mine.value == theirs.value == value
        assert (mine.namespace, mine.key) == (theirs.namespace, theirs.key)
    assert ours.get(("docs", "ada"), "missing") is None is reference.get(("docs", "ada"), "x")


def test_query_search_ranks_and_scores_the_same(stores):
    reference, ours = stores
    for prefix, query, limit, offset in [
        (("docs",), "python tutorial", 10, 0),
        (("docs",), "python tutorial", 2, 1),
        ((), "playlist", 3, 0),
        (("docs", "ada"), "guide", 10, 0),
    ]:
        theirs = reference.search(prefix, query=query, limit=limit, offset=offset)
        mine = ours.search(prefix, query=query, limit=limit, offset=offset)
        assert keys(mine) == keys(theirs)
        assert [round(i.score, 4) for i in mine] == [round(i.score, 4) for i in theirs]


def test_filters_select_the_same_items(stores):
    reference, ours = stores
    for prefix, filter in [
        (("docs",), {"kind": "note"}),
        (("docs",), {"kind": "guide", "n": {"$gte": 5}}),
        (("docs",), {"n": {"$gt": 1, "$lt": 9}}),
        (("docs",), {"kind": {"$ne": "note"}}),
        (("music",), {"meta": {"lang": "pt"}}),
        (("music",), {"meta": {"stars": {"$lte": 4}}}),
        ((), {"text": "Jazz playlist"}),
    ]:
        theirs = reference.search(prefix, filter=filter, limit=10)
        mine = ours.search(prefix, filter=filter, limit=10)
        assert sorted(keys(mine)) == sorted(keys(theirs)), filter
        assert mine and all(i.score is None for i in mine)
    query = {"query": "python", "filter": {"kind": "note"}, "limit": 1}
    assert keys(ours.search(("docs",), **query)) == keys(reference.search(("docs",), **query))


def test_list_namespaces_agrees(stores):
    reference, ours = stores
    for options in [
        {},
        {"prefix": ("docs",)},
        {"suffix": ("ada",)},
        {"max_depth": 2},
        {"prefix": ("*", "ada")},
        {"prefix": ("docs",), "suffix": ("old",)},
        {"limit": 2, "offset": 1},
    ]:
        assert ours.list_namespaces(**options) == reference.list_namespaces(**options), options


def test_overwrite_and_delete_agree(stores):
    reference, ours = stores
    for store in (reference, ours):
        store.put(("docs", "ada"), "d1", {"text": "Rust tutorial", "kind": "guide", "n": 2})
        store.delete(("docs", "bob"), "d4")
    assert ours.get(("docs", "ada"), "d1").value == reference.get(("docs", "ada"), "d1").value
    assert ours.get(("docs", "bob"), "d4") is None is reference.get(("docs", "bob"), "d4")
    assert keys(ours.search(("docs",), query="rust", limit=2)) == keys(
        reference.search(("docs",), query="rust", limit=2)
    )


async def test_async_forms_agree(stores):
    reference, ours = stores
    await ours.aput(("docs", "eve"), "e1", {"text": "Go handbook", "kind": "guide", "n": 7})
    await reference.aput(("docs", "eve"), "e1", {"text": "Go handbook", "kind": "guide", "n": 7})
    mine = await ours.asearch(("docs",), query="go handbook", limit=3)
    assert keys(mine) == keys(await reference.asearch(("docs",), query="go handbook", limit=3))
    assert (await ours.aget(("docs", "eve"), "e1")).value == {
        "text": "Go handbook",
        "kind": "guide",
        "n": 7,
    }
    assert await ours.alist_namespaces(prefix=("docs",)) == await reference.alist_namespaces(
        prefix=("docs",)
    )


def test_both_reject_the_same_bad_namespaces(stores):
    for store in stores:
        with pytest.raises(InvalidNamespaceError):
            store.put(("docs.ada",), "k", {"text": "x"})
        with pytest.raises(InvalidNamespaceError):
            store.put((), "k", {"text": "x"})


def test_comparison_on_a_missing_field_filters_where_in_memory_store_crashes(stores):
    reference, ours = stores
    with pytest.raises(TypeError):
        reference.search((), filter={"n": {"$gt": 2}})
    assert sorted(keys(ours.search((), filter={"n": {"$gt": 2}}))) == [
        (("docs", "ada"), "d2"),
        (("docs", "ada", "old"), "d3"),
        (("docs", "bob"), "d4"),
    ]
