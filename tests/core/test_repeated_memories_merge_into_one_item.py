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


def test_case_space_and_trailing_punctuation_do_not_make_a_new_memory():
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


def test_near_duplicates_merge_only_above_the_threshold():
    merging = minilm_memory().scope(user_id="alice")
    merging.remember("I love hiking in the Alps.")
    merging.remember("Hiking in the Alps, I love it!")  # the same words in another order
    merging.remember("I had surgery on my left knee.")
    merging.remember("I had surgery on my right knee.")  # cosine 0.99, but another fact
    merging.remember("My passport expires in 2027.")
    merging.remember("My passport expires in 2029.")  # another number: not merged
    assert sorted(i.text for i in merging.list()) == [
        "Hiking in the Alps, I love it!",
        "I had surgery on my left knee.",
        "I had surgery on my right knee.",
        "My passport expires in 2027.",
        "My passport expires in 2029.",
    ]
    exact_only = minilm_memory(similarity_threshold=None).scope(user_id="alice")
    exact_only.remember("The user is vegan.")
    exact_only.remember("I'm vegan")
    assert len(exact_only.list()) == 2


def test_other_namespaces_are_not_merged_into():
    memory = hashing_memory()
    memory.scope(user_id="alice").remember("I am allergic to kiwi.")
    memory.scope(user_id="bob").remember("I am allergic to kiwi.")
    assert memory.store.count(("users", "alice")) == 1
    assert memory.store.count(("users", "bob")) == 1
