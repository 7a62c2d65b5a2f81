"""``/`` shows every namespace as a tree: each node with the memories in exactly it and in it
and below it, linking to its page; an empty store says so."""

from tests.core.inspector_client import attributes, browser, new_store, texts


def test_the_tree_counts_each_namespace_and_what_lies_below():
    store = new_store()
    store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    store.put(("users", "alice"), "city", {"text": "Alice lives in Porto"})
    store.put(("users", "alice", "work"), "job", {"text": "Alice is a nurse"})
    store.put(("users", "bob"), "dog", {"text": "Bob has a dog"})
    client, _ = browser(store)

    page = client.get("/")

    assert page.status_code == 200
    nodes = [a["data-namespace"] for a in attributes(page.text, "namespace-node")]
    assert nodes == ["users", "users/alice", "users/alice/work", "users/bob"]
    assert texts(page.text, "namespace-count") == ["0 here", "2 here", "1 here", "1 here"]
    assert texts(page.text, "namespace-total") == ["4 in all", "3 in all", "1 in all", "1 in all"]
    links = [a["href"] for a in attributes(page.text, "namespace-link")]
    assert links == ["/ns/users", "/ns/users/alice", "/ns/users/alice/work", "/ns/users/bob"]
    assert texts(page.text, "store-summary")[0].startswith("4 memories")


def test_an_empty_store_says_it_holds_nothing():
    client, _ = browser(new_store())
    page = client.get("/")
    assert page.status_code == 200
    assert texts(page.text, "empty-store") == ["This store holds no memories."]
    assert texts(page.text, "namespace-tree") == []
