"""An edit sent from a page showing an older version (another writer changed the memory since)
is refused with 409, shows the memory as it is now, and writes nothing."""

from tests.core.inspector_client import browser, new_store, snapshot, submit, texts

ALICE = ("users", "alice")


def test_a_stale_edit_is_409_and_changes_nothing(tmp_path):
    store = new_store()
    shown = store.put(ALICE, "city", {"text": "Alice lives in Lisbon"})
    client, secrets = browser(store)
    store.put(ALICE, "city", {"text": "Alice lives in Porto"})  # another writer, meanwhile
    before = snapshot(store, tmp_path)

    answer = submit(
        client,
        secrets,
        "/edit/users/alice/city",
        text="Alice lives in Faro",
        updated_at=repr(shown.updated_at),
    )

    assert answer.status_code == 409
    assert "was written meanwhile" in texts(answer.text, "error-message")[0]
    assert "Alice lives in Porto" in texts(answer.text, "conflict-current")[0]
    assert snapshot(store, tmp_path) == before
