"""After an UPDATE (which closes the old memory, kept under its key), saying the old fact
again does not reopen it or undo the update: with a reconciler the model is asked; without
one, the old fact becomes a memory of its own, holding from when it is said again."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from tests.core.models import ScriptedModel, decisions

TEA = "The user likes tea."
GREEN = "The user likes green tea, never black tea."


def updated_store():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    model = ScriptedModel(decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": GREEN}))
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    scope.remember(TEA)
    scope.reconcile(["The user prefers green tea and never drinks black tea."])
    return store


def texts(store):
    return sorted(item.text for item in store.search(("users", "alice")))


def test_with_a_reconciler_the_model_decides():
    store = updated_store()
    model = ScriptedModel(decisions({"fact": 0, "event": "NONE", "id": 0}))
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    (change,) = scope.reconcile([TEA])

    assert change.event == "none" and model.calls == ["reconciliation"]
    assert texts(store) == [GREEN]


def test_without_one_the_old_fact_is_a_memory_of_its_own():
    store = updated_store()
    item = AgentMemory(store).scope(user_id="alice").remember(TEA)

    assert texts(store) == sorted([GREEN, TEA])
    assert item.key.endswith("-2") and item.value["mentions"] == 1
