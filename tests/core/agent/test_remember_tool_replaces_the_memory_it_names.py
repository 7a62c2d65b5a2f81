"""The ``remember`` tool's ``replaces`` names the memory the new fact corrects: that memory is
superseded (kept as what held before), with no reconciler call; an id of no current memory
writes nothing and tells the model so, in the tool's answer rather than an exception."""

import asyncio

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore, Reconciler
from memvault.memory_tools import NOT_REPLACED, arun_memory_tool, run_memory_tool
from memvault.testing import FakeClock
from tests.core.models import ScriptedModel

LISBON, PORTO = "The user lives in Lisbon.", "The user lives in Porto."


@pytest.fixture
def model():
    return ScriptedModel()  # any call would fail: it has no reply


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def scope(model, clock):
    store = MemoryStore(
        embedder=HashingEmbedder(dim=256), backend=InMemoryBackend(), clock=clock.time
    )
    return AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")


def test_the_named_memory_is_superseded_without_a_model_call(scope, model, clock):
    lisbon = scope.remember(LISBON)
    clock.advance(60)
    said = run_memory_tool(scope, "remember", {"text": PORTO, "replaces": lisbon.key})

    (porto,) = scope.list()
    assert said == (
        f"Remembered (id {porto.key}): {PORTO} (replaces id {lisbon.key}, no longer current: "
        f"{LISBON})"
    )
    assert porto.value["supersedes"] == lisbon.key
    assert scope.store.get(scope.namespace, lisbon.key).valid_to == porto.valid_from
    assert model.prompts == []


def test_the_async_tool_does_the_same(scope):
    lisbon = scope.remember(LISBON)
    args = {"text": PORTO, "replaces": lisbon.key}
    said = asyncio.run(arun_memory_tool(scope, "remember", args))
    assert said.startswith("Remembered (id ") and f"replaces id {lisbon.key}" in said


@pytest.mark.parametrize("replaces", ["mem-0000", "The user lives in Lisbon."])
def test_an_id_of_no_current_memory_writes_nothing_and_says_so(scope, replaces):
    scope.remember(LISBON)
    said = run_memory_tool(scope, "remember", {"text": PORTO, "replaces": replaces})

    assert said == NOT_REPLACED.format(id=replaces)
    assert [item.text for item in scope.list()] == [LISBON]


def test_a_memory_replaced_already_is_no_current_memory(scope, clock):
    lisbon = scope.remember(LISBON)
    clock.advance(60)
    run_memory_tool(scope, "remember", {"text": PORTO, "replaces": lisbon.key})
    said = run_memory_tool(
        scope, "remember", {"text": "The user lives in Faro.", "replaces": lisbon.key}
    )
    assert said == NOT_REPLACED.format(id=lisbon.key)
    assert [item.text for item in scope.list()] == [PORTO]


def test_a_text_saying_what_the_memory_says_writes_nothing(scope):
    lisbon = scope.remember(LISBON)
    said = run_memory_tool(scope, "remember", {"text": LISBON, "replaces": lisbon.key})
    assert said.startswith("Nothing was remembered: text says what the memory")
    assert [(item.key, item.valid_to) for item in scope.list()] == [(lisbon.key, None)]
