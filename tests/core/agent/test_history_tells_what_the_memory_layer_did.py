"""The agent-memory layer's writes reach the history with their event and source: a repeat is
a merge, a reconciled move a new memory and the old one closed (both kept, linked), a retired
fact closed, and each names who wrote it (extractor, turn, tool, api)."""

from memvault import (
    AgentMemory,
    FactExtractor,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
    memory_key,
)
from memvault.memory_tools import run_memory_tool
from tests.core.models import ScriptedModel, decisions, facts

ALICE = ("users", "alice")


def said(text):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]


def events(store, text):
    return [
        (e.event, e.source, (e.before or {}).get("text"), (e.after or {}).get("text"))
        for e in store.history(ALICE, memory_key(text))
    ]


def links(store, text):
    last = store.history(ALICE, memory_key(text))[-1].after
    return {name: last.get(name) for name in ("supersedes", "superseded_by") if name in last}


def new_store():
    return MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())


def test_a_move_is_two_linked_memories_and_a_retired_fact_is_closed():
    store = new_store()
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto."),
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
        facts("The user loves steak."),
        facts("The user no longer eats meat."),
        decisions({"fact": 0, "event": "DELETE", "id": 0}, {"fact": 0, "event": "ADD"}),
    )
    scope = AgentMemory(store, extractor=FactExtractor(model), reconciler=Reconciler(model)).scope(
        user_id="alice"
    )
    for text in ("I live in Lisbon.", "I moved to Porto."):
        scope.save_turns(said(text))

    lisbon, porto = "The user lives in Lisbon.", "The user lives in Porto."
    assert events(store, lisbon) == [
        ("add", "extractor", None, lisbon),
        ("update", "extractor", lisbon, lisbon),  # closed
    ]
    assert events(store, porto) == [
        ("add", "extractor", None, porto),
        ("update", "extractor", porto, porto),  # linked
    ]
    assert links(store, lisbon) == {"superseded_by": memory_key(porto)}
    assert links(store, porto) == {"supersedes": memory_key(lisbon)}
    assert store.get(ALICE, memory_key(lisbon)).valid_to is not None

    scope.forget("The user lives in Porto.")  # clear the way for the steak candidate only
    for text in ("I love steak.", "I no longer eat meat."):
        scope.save_turns(said(text))

    assert events(store, "The user loves steak.") == [
        ("add", "extractor", None, "The user loves steak."),
        ("update", "extractor", "The user loves steak.", "The user loves steak."),  # closed
    ]
    assert store.get(ALICE, memory_key("The user loves steak.")).valid_to is not None


def test_statements_repeats_and_tool_calls_name_their_source():
    store = new_store()
    scope = AgentMemory(store).scope(user_id="alice")
    scope.save_turns(said("I have a cat."))
    scope.remember("I have a cat.")
    run_memory_tool(scope, "forget", {"memory": memory_key("I have a cat.")})

    assert [(e, s) for e, s, _, _ in events(store, "I have a cat.")] == [
        ("add", "turn"),
        ("merge", "api"),
        ("delete", "tool"),
    ]
