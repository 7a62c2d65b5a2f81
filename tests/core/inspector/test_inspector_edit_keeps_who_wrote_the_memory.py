"""An edit through the inspector keeps the memory's provenance (who wrote it, in which session),
so an edit does not turn a memory an assistant wrote into one a trust policy recalls; the
history says the edit came from the inspector ("ui")."""

from memvault.model import Provenance
from tests.core.inspector_client import browser, new_store, submit, texts

ALICE = ("users", "alice")


def test_an_edit_keeps_the_provenance():
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes tea"}, provenance=Provenance("assistant", "t1"))
    client, secrets = browser(store)
    shown_at = repr(store.get(ALICE, "tea").updated_at)

    done = submit(
        client, secrets, "/edit/users/alice/tea", text="Alice likes green tea", updated_at=shown_at
    )

    assert done.status_code == 303
    edited = store.get(ALICE, "tea")
    assert edited.text == "Alice likes green tea"
    assert edited.provenance == Provenance("assistant", "t1")
    assert store.history(ALICE, "tea")[-1].source == "ui"
    page = client.get("/item/users/alice/tea")
    assert texts(page.text, "memory-provenance") == ["assistant · session t1"]
