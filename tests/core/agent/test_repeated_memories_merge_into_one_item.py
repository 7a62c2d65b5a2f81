"""Saying a thing again updates one memory: created_at kept, updated_at moved, mentions counted."""

import time

from memvault import memory_key
from tests.core.memory_fixtures import hashing_memory, minilm_memory


def said(text):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]


def test_the_same_sentence_in_three_threads_is_one_item():
    memory = hashing_memory()
    for thread in ("t1", "t2", "t3"):
        memory.scope(user_id="alice", thread_id=thread).save_turns(said("I am allergic to kiwi."))
        time.sleep(0.01)
    (item,) = memory.scope(user_id="alice").list()
    assert item.key == memory_key("I am allergic to kiwi.")
    assert item.value["mentions"] == 3
    assert item.value["sessions"] == ["t1", "t2", "t3"]
    assert item.value["session_id"] == "t3"
    assert item.updated_at > item.created_at


def test_case_space_and_punctuation_do_not_make_a_new_memory():
    scope = hashing_memory().scope(user_id="alice")
    for text in ("I am allergic to kiwi.", "  i am ALLERGIC   to kiwi", "I am allergic to kiwi!!"):
        scope.remember(text)
    (item,) = scope.list()
    assert item.text == "I am allergic to kiwi!!" and item.value["mentions"] == 3


def test_a_fact_merges_into_the_turn_that_said_it_and_stays_a_fact():
    scope = hashing_memory().scope(user_id="alice")
    scope.save_turns(said("I'm learning Portuguese."))
    scope.remember("The user is learning Portuguese.")  # same content words, first vs third person
    (item,) = scope.list()
    assert item.text == "The user is learning Portuguese."
    assert item.value["kind"] == "fact" and "role" not in item.value


def test_a_key_is_what_the_memory_says():
    scope = hashing_memory().scope(user_id="alice")
    for text in ("I'm married.", "The user is married", "I do not like cilantro."):
        scope.remember(text)
    scope.remember("I don't like cilantro!")  # contraction: same key
    for text in ("I have a cat.", "I had a cat.", "I prefer tea to coffee."):
        scope.remember(text)
    scope.remember("I prefer coffee to tea.")  # same words, another order: another fact
    scope.remember("Am I married?")  # a question is no restatement
    assert sorted((i.text, i.value["mentions"]) for i in scope.list()) == [
        ("Am I married?", 1),
        ("I don't like cilantro!", 2),
        ("I had a cat.", 1),
        ("I have a cat.", 1),
        ("I prefer coffee to tea.", 1),
        ("I prefer tea to coffee.", 1),
        ("The user is married", 2),
    ]


def test_a_similarity_threshold_merges_near_duplicates_with_the_same_numbers():
    merging = minilm_memory(similarity_threshold=0.8).scope(user_id="alice")
    merging.remember("I love hiking in the Alps.")
    merging.remember("I love hiking in the Alps a lot.")  # cosine > 0.8, one word more
    merging.remember("My passport expires in 2027.")
    merging.remember("My passport expires in 2029.")  # another number: never merged
    assert sorted(i.text for i in merging.list()) == [
        "I love hiking in the Alps a lot.",
        "My passport expires in 2027.",
        "My passport expires in 2029.",
    ]
    by_key_only = minilm_memory().scope(user_id="alice")
    by_key_only.remember("I love hiking in the Alps.")
    by_key_only.remember("I love hiking in the Alps a lot.")
    assert len(by_key_only.list()) == 2


def test_other_namespaces_are_not_merged_into():
    memory = hashing_memory()
    memory.scope(user_id="alice").remember("I am allergic to kiwi.")
    memory.scope(user_id="bob").remember("I am allergic to kiwi.")
    assert memory.store.count(("users", "alice")) == 1
    assert memory.store.count(("users", "bob")) == 1
