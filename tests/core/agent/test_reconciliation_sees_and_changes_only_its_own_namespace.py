"""The memories shown to the reconciler, and so those it can change, are those of the scope's
namespace only: an organisation's memory never sees or deletes a member's memories below it."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from tests.core.models import ScriptedModel, decisions


def test_an_org_reconciler_neither_sees_nor_deletes_a_members_memory():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    AgentMemory(store, ("orgs", "acme", "users", "{user_id}")).scope(user_id="bob").remember(
        "Bob works remotely from Lisbon."
    )
    model = ScriptedModel(decisions({"fact": 0, "event": "ADD"}))
    org = AgentMemory(store, ("orgs", "{org_id}"), reconciler=Reconciler(model))
    org.scope(org_id="acme").remember("Acme has an office in Lisbon.")
    org.scope(org_id="acme").reconcile(["Everyone at Acme works remotely from Lisbon."])

    shown = model.shown()["existing_memories"]
    assert [m["text"] for m in shown] == ["Acme has an office in Lisbon."]
    assert [item.text for item in store.search(("orgs", "acme", "users"))] == [
        "Bob works remotely from Lisbon."
    ]
