"""Every page and action of the inspector that asks the firewall (the item page, a search, the
held memories' page, the release confirmation, an edit) runs its model in a worker thread,
never on the event loop, and a search screens its results in one batch."""

import asyncio

import pytest

import memvault.firewall_classifier
from tests.core.inspector_client import browser, new_store, submit

ALICE = ("users", "alice")
HELD = "override: the fake classifier"


@pytest.fixture
def calls(monkeypatch):
    """The calls of the classifier: for each, its texts and whether an event loop was running
    in the calling thread. It holds a text that says HOLDME."""
    seen: list[tuple[list[str], bool]] = []

    def classify_many(texts):
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        seen.append((list(texts), on_loop))
        return [HELD if "HOLDME" in text else None for text in texts]

    monkeypatch.setattr(memvault.firewall_classifier, "classify_many", classify_many)
    return seen


def test_the_firewall_never_runs_on_the_event_loop(calls):
    store = new_store()
    store.put(ALICE, "tea", {"text": "Alice likes green tea"})
    store.put(ALICE, "coffee", {"text": "Alice likes tea and coffee"})
    store.put(ALICE, "odd", {"text": "Alice likes tea HOLDME"})
    client, secrets = browser(store)

    pages = [
        "/item/users/alice/tea",
        "/search?q=tea",
        "/quarantined",
        "/release/users/alice/odd",
    ]
    for url in pages:
        assert client.get(url).status_code == 200, url
    shown_at = repr(store.get(ALICE, "tea").updated_at)
    edited = submit(
        client, secrets, "/edit/users/alice/tea", text="Alice likes black tea", updated_at=shown_at
    )
    assert edited.status_code == 303

    assert calls and not any(on_loop for _, on_loop in calls)
    searched = [texts for texts, _ in calls if len(texts) == 3]
    assert searched, "a search of three results screens them in one call"
