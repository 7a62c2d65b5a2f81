"""A decision about a memory that another writer changed while the model was deciding is not
applied: a stale DELETE leaves the newer memory, a stale UPDATE adds its text beside it."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from tests.core.models import decisions

NEWER = "The user lives in Porto and works in Braga."


def scope_whose_model_races(reply):
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    memory = AgentMemory(store)

    def model(messages):  # another writer updates the memory while the model decides
        key = store.search(("users", "alice"))[0].key
        store.put(("users", "alice"), key, {"text": NEWER, "kind": "fact", "mentions": 1})
        return reply

    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    memory.scope(user_id="alice").remember("The user lives in Porto.")
    return store, scope


def texts(store):
    return sorted(item.text for item in store.search(("users", "alice")))


def test_a_stale_delete_keeps_the_newer_memory():
    store, scope = scope_whose_model_races(decisions({"fact": 0, "event": "DELETE", "id": 0}))
    scope.reconcile(["The user moved away from Porto."])
    assert texts(store) == [NEWER]


def test_a_stale_update_adds_its_text_beside_the_newer_memory():
    reply = decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Faro."})
    store, scope = scope_whose_model_races(reply)
    (change,) = scope.reconcile(["The user moved to Faro."])
    assert change.event == "add"
    assert texts(store) == sorted([NEWER, "The user lives in Faro."])
