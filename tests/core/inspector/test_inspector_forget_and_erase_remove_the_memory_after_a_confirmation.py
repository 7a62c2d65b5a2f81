"""Forget and erase each take a confirmation page first; confirmed, forget deletes the memory
(its history stays, with the text) and erase deletes it with every history entry's text."""

from tests.core.inspector_client import attributes, browser, new_store, submit, texts

ALICE = ("users", "alice")


def test_forget_asks_then_deletes_and_keeps_the_history():
    store = new_store()
    item = store.put(ALICE, "tea", {"text": "Alice likes tea"})
    client, secrets = browser(store)
    page = client.get("/item/users/alice/tea")
    assert attributes(page.text, "forget-link")[0]["href"] == "/forget/users/alice/tea"

    confirm = client.get("/forget/users/alice/tea")
    assert confirm.status_code == 200
    assert "Alice likes tea" in texts(confirm.text, "confirm-what")[0]
    assert store.get(ALICE, "tea") is not None  # asking changes nothing

    done = submit(
        client,
        secrets,
        "/forget/users/alice/tea",
        confirmed="yes",
        updated_at=repr(item.updated_at),
    )

    assert done.status_code == 303
    assert store.get(ALICE, "tea") is None
    after = client.get(done.headers["location"])
    assert texts(after.text, "no-live-memory")
    assert texts(after.text, "history-event") == ["add", "delete"]
    assert texts(after.text, "history-before")[1] == "Alice likes tea"  # forget keeps the text


def test_erase_asks_then_removes_the_text_from_the_history_too():
    store = new_store()
    store.put(ALICE, "health", {"text": "Alice has asthma"})
    item = store.put(ALICE, "health", {"text": "Alice has mild asthma"})
    client, secrets = browser(store)

    confirm = client.get("/erase/users/alice/health")
    assert confirm.status_code == 200
    assert "every entry of its history loses its text" in texts(confirm.text, "confirm-what")[0]

    done = submit(
        client,
        secrets,
        "/erase/users/alice/health",
        confirmed="yes",
        updated_at=repr(item.updated_at),
    )

    assert done.status_code == 303
    assert store.get(ALICE, "health") is None
    assert all(e.before is None and e.after is None for e in store.history(ALICE, "health"))
    after = client.get("/item/users/alice/health")
    assert "asthma" not in after.text
    assert texts(after.text, "history-event") == ["add", "update", "erase"]


def test_a_forgotten_memory_can_still_have_its_history_erased():
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes tea"})
    store.delete(ALICE, "tea")
    client, secrets = browser(store)

    done = submit(client, secrets, "/erase/users/alice/tea", confirmed="yes", updated_at="")

    assert done.status_code == 303
    assert "likes tea" not in client.get("/item/users/alice/tea").text
    assert [e.event for e in store.history(ALICE, "tea")] == ["add", "delete", "erase"]
