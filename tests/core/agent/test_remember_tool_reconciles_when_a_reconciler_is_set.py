"""The ``remember`` tool sends its fact through the reconciler and tells the model what
changed; without a reconciler it adds or merges, with no model call."""

import asyncio

from memvault import (
    AgentMemory,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
    memory_key,
)
from memvault.memory_tools import arun_memory_tool, run_memory_tool
from tests.core.models import ScriptedModel, decisions

LISBON = "The user lives in Lisbon."


def scope_with(model=None):
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    reconciler = Reconciler(model) if model is not None else None
    scope = AgentMemory(store, reconciler=reconciler).scope(user_id="alice")
    scope.remember(LISBON)
    return scope


def test_an_update_is_reported_with_the_text_it_replaced():
    model = ScriptedModel(
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."})
    )
    scope = scope_with(model)
    said = run_memory_tool(scope, "remember", {"text": "The user moved to Porto."})

    porto = memory_key("The user lives in Porto.")
    assert said == (
        f"Remembered (id {porto}): The user lives in Porto. "
        f"(replaces id {memory_key(LISBON)}, no longer current: {LISBON})"
    )
    assert [item.text for item in scope.list()] == ["The user lives in Porto."]


def test_the_async_tool_awaits_the_same_decision():
    model = ScriptedModel(decisions({"fact": 0, "event": "NONE", "id": 0}))
    scope = scope_with(model)
    said = asyncio.run(arun_memory_tool(scope, "remember", {"text": "The user is in Lisbon."}))

    assert said == f"Already remembered (id {memory_key(LISBON)}): {LISBON}"
    assert model.calls == ["reconciliation"]


def test_without_a_reconciler_the_tool_adds():
    scope = scope_with()
    said = run_memory_tool(scope, "remember", {"text": "The user moved to Porto."})

    assert (
        said
        == f"Remembered (id {memory_key('The user moved to Porto.')}): The user moved to Porto."
    )
    assert len(scope.list()) == 2
