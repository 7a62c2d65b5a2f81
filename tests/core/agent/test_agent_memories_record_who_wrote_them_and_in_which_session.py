"""Every memory the agent layer writes records who wrote it and in which session (issue 28).

A saved user statement is ``"user"``, the extractor's and reconciler's facts ``"extractor"``,
the ``remember`` tool's ``"tool"``, a direct ``remember`` ``"api"``, an assistant statement
remembered with ``source="assistant"`` ``"assistant"``, each with the scope's session. A
rewrite that only changes a memory's context (a neighbour forgotten) keeps who said it, and a
reconciled UPDATE leaves the closed memory with its own provenance.
"""

from memvault import AgentMemory, FactExtractor, Reconciler, memory_key
from memvault.memory_tools import run_memory_tool
from memvault.model import Provenance
from tests.core.memory_fixtures import hashing_memory
from tests.core.models import ScriptedModel, decisions, facts

ADA = ("users", "ada")


def provenance(store, text):
    return store.get(ADA, memory_key(text)).provenance


def test_statements_tool_calls_and_direct_writes_carry_their_origin_and_session():
    memory = hashing_memory()
    scope = memory.scope(user_id="ada", session_id="t1")
    scope.save_turns([{"role": "user", "content": "I have a cat."}])
    run_memory_tool(scope, "remember", {"text": "Ada is vegetarian."})
    scope.remember("Ada works as a nurse.")
    memory.scope(user_id="ada").remember("Ada likes jazz.", source="assistant")

    store = memory.store
    assert provenance(store, "I have a cat.") == Provenance("user", "t1")
    assert provenance(store, "Ada is vegetarian.") == Provenance("tool", "t1")
    assert provenance(store, "Ada works as a nurse.") == Provenance("api", "t1")
    assert provenance(store, "Ada likes jazz.") == Provenance("assistant", None)


def test_extracted_and_reconciled_facts_are_the_extractors_and_the_closed_one_keeps_its_own():
    model = ScriptedModel(
        facts("The user lives in Lisbon."),
        facts("The user moved to Porto."),
        decisions({"fact": 0, "event": "UPDATE", "id": 0, "text": "The user lives in Porto."}),
    )
    memory = AgentMemory(
        hashing_memory().store, extractor=FactExtractor(model), reconciler=Reconciler(model)
    )
    said = [
        {"role": "user", "content": "I live in Lisbon."},
        {"role": "assistant", "content": "Ok"},
    ]
    memory.scope(user_id="ada", session_id="s1").save_turns(said)
    moved = [{"role": "user", "content": "I moved to Porto."}]
    memory.scope(user_id="ada", session_id="s2").save_turns(moved)

    lisbon = memory.store.get(ADA, memory_key("The user lives in Lisbon."))
    assert lisbon.valid_to is not None  # closed by the UPDATE, still the first session's
    assert lisbon.provenance == Provenance("extractor", "s1")
    assert provenance(memory.store, "The user lives in Porto.") == Provenance("extractor", "s2")


def test_a_memory_rewritten_when_its_neighbour_is_forgotten_keeps_who_said_it():
    memory = hashing_memory()
    scope = memory.scope(user_id="ada", session_id="s1")
    for message in ("I am allergic to peanuts.", "My sister is called Ana."):
        scope.save_turns([{"role": "user", "content": message}])
    memory.scope(user_id="ada").forget("that I am allergic to peanuts")

    (sister,) = memory.store.search(ADA)
    assert "peanuts" not in sister.value["context"]  # rewritten by an api forget
    assert sister.provenance == Provenance("user", "s1")
    assert memory.store.history(ADA, sister.key)[-1].source == "api"
