"""Each memory shows who wrote its current version and in which session ("user · session t1"),
on the namespace page's rows, on its own page and on the search results' lines; a record from
before provenance reads "api"; a session's markup is shown as text."""

from memvault.model import Provenance
from tests.core.inspector_client import browser, new_store, texts

ALICE = ("users", "alice")


def test_provenance_is_shown_on_every_page_that_lists_a_memory():
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes green tea"}, provenance=Provenance("user", "t1"))
    store.put(ALICE, "cake", {"text": "Alice bakes a lemon cake"}, provenance=Provenance("tool"))
    store.put(ALICE, "old", {"text": "Alice drinks tea at noon"})
    store.put(
        ALICE,
        "xss",
        {"text": "Alice tea <b>"},
        provenance=Provenance("assistant", "<script>x</script>"),
    )
    client, _ = browser(store)

    listing = client.get("/ns/users/alice")
    tea = client.get("/item/users/alice/tea")
    old = client.get("/item/users/alice/old")
    found = client.get("/search", params={"q": "tea", "mode": "lexical"})

    assert texts(listing.text, "memory-provenance") == [
        "assistant · session <script>x</script>",
        "api",
        "tool",
        "user · session t1",
    ]
    assert texts(tea.text, "memory-provenance") == ["user · session t1"]
    assert texts(old.text, "memory-provenance") == ["api"]
    assert sorted(texts(found.text, "result-provenance")) == [
        "api",
        "assistant · session <script>x</script>",
        "user · session t1",
    ]
    (line,) = [row for row in texts(found.text, "result-row") if "green tea" in row]
    assert "written by user · session t1" in line
    for page in (listing, found):
        assert "<script>x</script>" not in page.text
        assert "&lt;script&gt;x&lt;/script&gt;" in page.text
