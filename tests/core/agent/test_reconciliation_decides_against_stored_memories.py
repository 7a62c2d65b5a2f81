"""One reconciliation call per batch decides how new facts change what is stored (Mem0's
ADD / UPDATE / DELETE / NONE), showing stored memories under small integer ids; an UPDATE
supersedes the memory and a DELETE closes it (both stay stored, no longer current)."""

import pytest

from memvault import (
    AgentMemory,
    FactExtractor,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
    Reconciler,
)
from tests.core.models import ScriptedModel, decisions, facts


def said(text):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]


@pytest.fixture
def store():
    with MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend()) as store:
        yield store


def memory_with(store, model):
    return AgentMemory(store, extractor=FactExtractor(model), reconciler=Reconciler(model))


def live_texts(scope):
    return sorted(item.text for item in scope.list(100))


def test_a_move_supersedes_the_fact(store):
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto."),
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
    )
    scope = memory_with(store, model).scope(user_id="alice")
    (lisbon,) = scope.save_turns(said("I live in Lisbon."))
    (porto,) = scope.save_turns(said("I moved to Porto."))

    assert live_texts(scope) == ["The user lives in Porto."]
    assert porto.key != lisbon.key and porto.value["supersedes"] == lisbon.key
    closed = store.get(lisbon.namespace, lisbon.key)
    assert (closed.text, closed.valid_to) == ("The user lives in Lisbon.", porto.valid_from)
    assert model.shown()["existing_memories"] == [{"id": 0, "text": "The user lives in Lisbon."}]
    assert model.calls == ["extraction", "extraction", "reconciliation"]


def test_a_fact_that_makes_a_memory_false_closes_it_and_is_kept(store):
    model = ScriptedModel(
        facts("The user loves steak."),
        facts("The user no longer eats meat."),
        decisions(
            {"fact": 0, "event": "DELETE", "id": 0},
            {"fact": 0, "event": "ADD"},
        ),
    )
    scope = memory_with(store, model).scope(user_id="alice")
    scope.save_turns(said("I love steak."))
    scope.save_turns(said("I no longer eat meat."))

    assert live_texts(scope) == ["The user no longer eats meat."]


def test_a_repeated_fact_decided_none_changes_nothing(store):
    model = ScriptedModel(
        facts("The user loves hiking."),
        facts("The user enjoys hiking a lot."),
        decisions({"fact": 0, "event": "NONE", "id": 0}),
    )
    scope = memory_with(store, model).scope(user_id="alice")
    (before,) = scope.save_turns(said("I love hiking."))
    assert scope.save_turns(said("Hiking is something I really enjoy.")) == []

    (after,) = scope.list(100)
    assert after.model_dump() == before.model_dump()


def test_a_word_for_word_repeat_merges_without_a_call(store):
    model = ScriptedModel(facts("The user loves hiking."), facts("The user loves hiking."))
    scope = memory_with(store, model).scope(user_id="alice")
    scope.save_turns(said("I love hiking."))
    (merged,) = scope.save_turns(said("I love hiking!"))

    assert merged.value["mentions"] == 2
    assert model.calls == ["extraction", "extraction"]


def test_nothing_similar_stored_means_no_reconciliation_call(store):
    model = ScriptedModel(facts("The user has a cat named Miso."))
    scope = memory_with(store, model).scope(user_id="alice")
    scope.save_turns(said("My cat is called Miso."))

    assert model.calls == ["extraction"]


def test_an_invented_id_touches_no_memory_and_the_fact_is_added(store, caplog):
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto."),
        decisions(
            {"fact": 0, "event": "DELETE", "id": 7},
            {"fact": 0, "event": "UPDATE", "id": "mem-x", "text": "x"},
        ),
    )
    scope = memory_with(store, model).scope(user_id="alice")
    scope.save_turns(said("I live in Lisbon."))
    scope.save_turns(said("I moved to Porto."))

    assert live_texts(scope) == ["The user lives in Lisbon.", "The user moved to Porto."]
    assert "was not shown" in caplog.text


@pytest.mark.parametrize("reply", ["I cannot help with that.", "{{{", '{"decisions": "none"}'])
def test_a_garbage_reply_adds_every_fact_and_deletes_nothing(store, caplog, reply):
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto.", "The user lives with a partner."),
        reply,
    )
    scope = memory_with(store, model).scope(user_id="alice")
    scope.save_turns(said("I live in Lisbon."))
    written = scope.save_turns(said("I moved to Porto with my partner."))

    assert [item.text for item in written] == [
        "The user moved to Porto.",
        "The user lives with a partner.",
    ]
    assert len(live_texts(scope)) == 3
    assert "reconciliation" in caplog.text


def test_the_model_sees_only_this_users_memories(store):
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto."),
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
    )
    memory = memory_with(store, model)
    memory.scope(user_id="bob").save_turns(said("I live in Lisbon."))
    memory.scope(user_id="alice").save_turns(said("I live in Lisbon."))
    memory.scope(user_id="alice").save_turns(said("I moved to Porto."))

    assert len(model.shown()["existing_memories"]) == 1
    assert live_texts(memory.scope(user_id="bob")) == ["The user lives in Lisbon."]


def test_a_reconciler_alone_draws_and_decides_a_turn_in_one_call(store):
    model = ScriptedModel(
        decisions({"event": "ADD", "text": "The user lives in Lisbon."}),
        decisions({"event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
    )
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    scope.save_turns(said("I live in Lisbon."))
    scope.save_turns(said("Thanks! What's the weather like?"))  # no statement: no call
    scope.save_turns(said("I moved to Porto."))

    assert live_texts(scope) == ["The user lives in Porto."]
    assert len(model.prompts) == 2
    assert model.shown()["existing_memories"] == [{"id": 0, "text": "The user lives in Lisbon."}]
    assert model.shown()["conversation"][0] == {"role": "user", "content": "I moved to Porto."}


def test_one_call_with_an_invented_id_or_a_garbage_reply_stores_the_turn_raw(store):
    model = ScriptedModel(
        decisions({"event": "ADD", "text": "The user lives in Lisbon."}),
        decisions({"event": "UPDATE", "id": 9, "text": "The user lives in Porto."}),
        "no JSON here",
    )
    scope = AgentMemory(store, reconciler=Reconciler(model)).scope(user_id="alice")
    scope.save_turns(said("I live in Lisbon."))
    scope.save_turns(said("I moved to Porto."))
    scope.save_turns(said("I have two cats."))

    assert live_texts(scope) == [
        "I have two cats.",
        "I moved to Porto.",
        "The user lives in Lisbon.",
    ]
