"""Recall never returns two memories saying the same thing, nor what the conversation holds."""

from memvault import memory_key
from memvault.statements import normalize_text
from tests.core.memory_fixtures import hashing_memory

NS = ("users", "alice")


def test_copies_stored_around_the_layer_are_recalled_once():
    memory = hashing_memory()
    for key, text in [("a", "I am allergic to kiwi."), ("b", "i am allergic to KIWI")]:
        memory.store.put(NS, key, {"text": text})
    memory.store.put((*NS, "work"), "c", {"text": "The user is allergic to kiwi"})
    memory.store.put(NS, "d", {"text": "I like mangoes."})
    recalled = memory.scope(user_id="alice").recall("which fruit should I avoid? kiwi", k=5)
    assert len(recalled) == 2
    assert len({normalize_text(i.text) for i in recalled}) == 2


def test_texts_in_the_conversation_are_left_out():
    scope = hashing_memory().scope(user_id="alice")
    scope.remember("I am allergic to kiwi.")
    scope.remember("I like mangoes.")
    history = ["Thanks! I am allergic to kiwi. What fruit is safe?"]
    recalled = scope.recall("fruit kiwi mangoes", exclude=history)
    assert [i.key for i in recalled] == [memory_key("I like mangoes.")]


def test_k_and_blank_queries():
    scope = hashing_memory(k=2).scope(user_id="alice")
    for text in ("I like tea.", "I like coffee.", "I like juice."):
        scope.remember(text)
    assert len(scope.recall("like")) == 2
    assert len(scope.recall("like", k=3)) == 3
    assert scope.recall("   ") == [] and scope.context(None) == ""


def test_the_same_words_in_another_order_are_another_memory_and_both_are_recalled():
    scope = hashing_memory().scope(user_id="alice")
    scope.remember("I moved from Madrid to Lisbon in 2019.")
    scope.remember("I moved from Lisbon to Madrid in 2019.")
    recalled = scope.recall("Which cities have I lived in? Lisbon Madrid")
    assert len(recalled) == 2
