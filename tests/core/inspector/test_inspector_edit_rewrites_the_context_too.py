"""Editing a memory that has a ``context`` (the conversation around it, which lexical search
and export read too) edits that context as well, in the same compare-and-set put, so the old
words are no longer found; the page says neighbours' contexts may still quote them. A memory
without a context gets no context box."""

from tests.core.inspector_client import attributes, browser, new_store, submit, texts

ALICE = ("users", "alice")
OLD = "Alice lives at 12 Larkspur Lane"
VALUE = {"text": OLD, "context": f"2025-11-20\nuser: {OLD}\nassistant: Noted."}


def test_the_edit_form_shows_the_context_and_its_note():
    store = new_store()
    store.put(ALICE, "home", VALUE)
    store.put(ALICE, "tea", {"text": "Alice likes tea"})
    client, _ = browser(store)

    page = client.get("/item/users/alice/home").text

    assert texts(page, "edit-context") == [" ".join(VALUE["context"].split())]
    assert attributes(page, "edit-context")[0]["name"] == "context"
    (note,) = texts(page, "edit-context-note")
    assert "may still quote the old words" in note and "memvault forget" in note
    plain = client.get("/item/users/alice/tea").text
    assert texts(plain, "edit-context") == [] and texts(plain, "edit-context-note") == []


def test_an_edit_replaces_the_context_and_search_no_longer_finds_the_old_words():
    store = new_store()
    store.put(ALICE, "home", VALUE)
    client, secrets = browser(store)
    assert [hit.key for hit in store.search(ALICE, query="Larkspur", mode="lexical")] == ["home"]
    shown_at = repr(store.get(ALICE, "home").updated_at)

    done = submit(
        client,
        secrets,
        "/edit/users/alice/home",
        text="Alice moved",
        context="2025-11-20\r\nuser: Alice moved\r\nassistant: Noted.",
        updated_at=shown_at,
    )

    assert done.status_code == 303
    edited = store.get(ALICE, "home")
    assert edited.value["context"] == "2025-11-20\nuser: Alice moved\nassistant: Noted."
    assert store.search(ALICE, query="Larkspur", mode="lexical") == []
    assert len(store.history(ALICE, "home")) == 2  # one put: the text and the context together


def test_an_empty_context_removes_it():
    store = new_store()
    store.put(ALICE, "home", VALUE)
    client, secrets = browser(store)
    shown_at = repr(store.get(ALICE, "home").updated_at)

    url = "/edit/users/alice/home"
    submit(client, secrets, url, text="Alice moved", context="", updated_at=shown_at)

    assert "context" not in store.get(ALICE, "home").value
