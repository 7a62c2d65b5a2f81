"""Forgetting a memory removes its sources and every memory stating it, so it stays forgotten."""

from memvault import AgentMemory, FactExtractor, memory_key
from tests.core.memory_fixtures import hashing_memory

LEARNING = [{"role": "user", "content": "I am learning Portuguese."}]


def test_forget_by_description_removes_the_turn_and_the_fact():
    scope = hashing_memory().scope(user_id="alice")
    scope.save_turns(LEARNING)
    scope.remember("Alice takes Portuguese lessons on Mondays.")
    scope.remember("The user has a dog called Rex.")
    removed = scope.forget("forget that I am learning Portuguese")
    assert [i.text for i in removed] == ["I am learning Portuguese."]
    assert sorted(i.text for i in scope.list()) == [
        "Alice takes Portuguese lessons on Mondays.",
        "The user has a dog called Rex.",
    ]
    assert scope.context("Which languages am I learning?").count("learning Portuguese") == 0


def test_forget_by_key_removes_the_sources_of_an_extracted_fact():
    class Extractor(FactExtractor):
        def extract(self, messages):
            return ["The user studies Portuguese."]

    memory = hashing_memory()
    scope = memory.scope(user_id="alice")
    scope.save_turns(LEARNING)  # an earlier turn, stored raw (no extractor then)
    with_llm = AgentMemory(memory.store, extractor=Extractor(lambda messages: ""))
    (fact,) = with_llm.scope(user_id="alice").save_turns(LEARNING)
    assert fact.value["sources"] == [memory_key("I am learning Portuguese.")]
    removed = scope.forget(fact.key)
    assert {i.text for i in removed} == {
        "The user studies Portuguese.",
        "I am learning Portuguese.",
    }
    assert scope.list() == []


def test_nothing_matching_removes_nothing():
    scope = hashing_memory().scope(user_id="alice")
    scope.remember("The user has a dog called Rex.")
    assert scope.forget("that I live in Lisbon") == []
    assert len(scope.list()) == 1


def test_forget_stays_in_the_users_namespace():
    memory = hashing_memory()
    memory.scope(user_id="bob").save_turns(LEARNING)
    memory.scope(user_id="alice").save_turns(LEARNING)
    memory.scope(user_id="alice").forget("that I am learning Portuguese")
    assert memory.store.count(("users", "bob")) == 1
    assert memory.store.count(("users", "alice")) == 0
