"""The search page ranks in the mode asked and says, for each result, its score and score type
and where it ranks in a dense-only and a lexical-only search of the same query, with their
scores; it says whether the query named a period; ``as_of`` finds what held then."""

from memvault.items import SCORE_SCALES
from tests.core.inspector_client import START, attributes, browser, new_store, texts

ALICE = ("users", "alice")


def test_each_result_carries_its_score_and_its_dense_and_lexical_ranks():
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice drinks green tea every morning"})
    store.put(ALICE, "coffee", {"text": "Bob drinks coffee"})
    store.put(ALICE, "city", {"text": "Alice lives in Porto"})
    client, _ = browser(store)

    page = client.get("/search", params={"q": "green tea", "ns": "users/alice", "mode": "hybrid"})

    assert page.status_code == 200
    keys = [a["data-key"] for a in attributes(page.text, "result-row")]
    hits = store.search(ALICE, query="green tea", mode="hybrid", limit=20)
    assert keys == [hit.key for hit in hits]
    assert texts(page.text, "result-score")[0] == f"{hits[0].score:.4f}"
    assert set(texts(page.text, "result-score-type")) == {"hybrid"}
    dense = store.search(ALICE, query="green tea", mode="dense", limit=100)
    lexical = store.search(ALICE, query="green tea", mode="lexical", limit=100)
    first_dense = next(rank for rank, hit in enumerate(dense, 1) if hit.key == "tea")
    assert texts(page.text, "result-why-dense")[0] == (
        f"dense: rank {first_dense}, cosine {dense[first_dense - 1].score:.4f}"
    )
    assert (
        texts(page.text, "result-why-lexical")[0] == f"lexical: rank 1, BM25 {lexical[0].score:.4f}"
    )
    assert lexical[0].key == "tea"
    no_word = keys.index("city")
    assert texts(page.text, "result-why-lexical")[no_word].startswith("lexical: no word shared")
    assert SCORE_SCALES["hybrid"] in texts(page.text, "score-explained")[0]
    assert texts(page.text, "search-periods")[0].startswith("The query names no period")


def test_a_named_period_is_said_and_as_of_finds_what_held_then():
    store = new_store()
    store.put(
        ALICE,
        "old",
        {"text": "Alice lived in Lisbon"},
        valid_from=START - 9e7,
        valid_to=START - 1e7,
    )
    store.put(ALICE, "new", {"text": "Alice lives in Porto"}, valid_from=START - 1e7)
    client, _ = browser(store)

    now = client.get("/search", params={"q": "where does Alice live", "mode": "dense"})
    then = client.get(
        "/search", params={"q": "where did Alice live", "mode": "dense", "as_of": "2024-01-01"}
    )
    named = client.get("/search", params={"q": "where did Alice live in July 2022"})

    assert [a["data-key"] for a in attributes(now.text, "result-row")] == ["new"]
    assert [a["data-key"] for a in attributes(then.text, "result-row")] == ["old"]
    assert set(texts(then.text, "result-score-type")) == {"cosine"}
    assert texts(named.text, "search-periods")[0].startswith(
        "The query names 2022-07-01 to 2022-07-31 (UTC)"
    )


def test_the_form_alone_has_no_results():
    client, _ = browser(new_store())
    page = client.get("/search")
    assert page.status_code == 200
    assert attributes(page.text, "search-form")
    assert texts(page.text, "search-results") == []
