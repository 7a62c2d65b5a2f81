"""The memory page's history says an erase in words, and that the entries before it lost their
text ("text erased"), instead of `- → -`; the entries of a memory not erased still show the
text before → after."""

from tests.core.inspector_client import browser, new_store, texts

ALICE = ("users", "alice")


def test_erased_entries_read_as_erased():
    store = new_store()
    store.put(ALICE, "health", {"text": "Alice has mild asthma"})
    store.put(ALICE, "health", {"text": "Alice has asthma"})
    store.delete(ALICE, "health", erase=True)
    store.put(ALICE, "tea", {"text": "Alice likes tea"})
    client, _ = browser(store)

    page = client.get("/item/users/alice/health").text

    assert texts(page, "history-event") == ["add", "update", "erase"]
    assert texts(page, "history-erased") == [
        "text erased",
        "text erased",
        "erased: the memory and the text of every entry above are gone",
    ]
    assert texts(page, "history-before") == [] and "- →" not in page
    kept = client.get("/item/users/alice/tea").text
    assert texts(kept, "history-erased") == []
    assert texts(kept, "history-after") == ["Alice likes tea"]
