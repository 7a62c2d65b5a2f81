"""A memory drawn from no other memory shows Sources as "-" on the namespace page and on its own
page alike; one with sources shows how many on the first and links to them on the second (a
"sources" value that is not a list of keys counts as none on both)."""

from tests.core.inspector_client import browser, new_store, texts

ALICE = ("users", "alice")


def test_both_pages_say_the_same_of_a_memory_without_sources():
    store = new_store()
    store.put(ALICE, "plain", {"text": "Alice likes tea"})
    store.put(ALICE, "odd", {"text": "Alice likes cake", "sources": "not a list"})
    store.put(ALICE, "drawn", {"text": "Alice likes tea and cake", "sources": ["plain", "odd"]})
    client, _ = browser(store)

    listing = client.get("/ns/users/alice")
    pages = {key: client.get(f"/item/users/alice/{key}") for key in ("plain", "odd", "drawn")}

    assert texts(listing.text, "memory-sources") == ["2", "-", "-"]  # drawn, odd, plain
    assert texts(pages["plain"].text, "memory-sources") == ["-"]
    assert texts(pages["odd"].text, "memory-sources") == ["-"]
    assert texts(pages["drawn"].text, "memory-source") == ["plain", "odd"]
