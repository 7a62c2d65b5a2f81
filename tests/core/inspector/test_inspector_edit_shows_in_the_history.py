"""Editing a memory's text on its page writes it through ``put`` (source ``ui``) and the page it
returns to shows the new text and the change on the history's timeline."""

from tests.core.inspector_client import browser, new_store, submit, texts

ALICE = ("users", "alice")


def test_an_edit_is_stored_and_shown_in_the_timeline():
    store = new_store()
    shown = store.put(ALICE, "tea", {"text": "Alice likes tea", "kind": "preference"})
    client, secrets = browser(store)
    page = client.get("/item/users/alice/tea")
    form = {"updated_at": repr(shown.updated_at)}
    assert f'value="{form["updated_at"]}"' in page.text  # the version the page shows

    answer = submit(
        client, secrets, "/edit/users/alice/tea", text="Alice likes green tea\r\nand honey", **form
    )

    assert answer.status_code == 303
    assert answer.headers["location"] == "/item/users/alice/tea"
    stored = store.get(ALICE, "tea")
    assert stored.value == {"text": "Alice likes green tea\nand honey", "kind": "preference"}
    after = client.get("/item/users/alice/tea")
    assert texts(after.text, "memory-text") == ["Alice likes green tea and honey"]
    assert texts(after.text, "history-event") == ["add", "update"]
    assert texts(after.text, "history-source") == ["api", "ui"]
    assert texts(after.text, "history-before") == ["-", "Alice likes tea"]
    assert texts(after.text, "history-after") == [
        "Alice likes tea",
        "Alice likes green tea and honey",
    ]
    assert [e.source for e in store.history(ALICE, "tea")] == ["api", "ui"]
