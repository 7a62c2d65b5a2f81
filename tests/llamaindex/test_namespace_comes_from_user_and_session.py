import pytest
from llama_index.core.llms import ChatMessage
from llama_index.memory.memvault import (
    MemvaultMemoryBlock,
    MemvaultRetriever,
    MemvaultToolSpec,
    memvault_memory,
)

from memvault.errors import InvalidNamespaceError


def test_a_session_template_keeps_each_session_apart(store):
    template = ("users", "{user_id}", "sessions", "{session_id}")
    first = memvault_memory(store, user_id="alice", session_id="s1", namespace=template)
    first.put(ChatMessage(role="user", content="I take the train to Porto on Fridays."))
    first.put(ChatMessage(role="assistant", content="Done."))

    assert store.list_namespaces() == [("users", "alice", "sessions", "s1")]
    second = memvault_memory(store, user_id="alice", session_id="s2", namespace=template)
    assert second.get(input="train to Porto") == []


def test_a_missing_user_id_fails_when_built_not_at_the_first_turn(store):
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        memvault_memory(store, session_id="s1")
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        MemvaultMemoryBlock(store)
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        MemvaultRetriever(store, user_id="")


def test_a_session_only_template_needs_no_user_id(store):
    memory = memvault_memory(store, session_id="s1", namespace=("sessions", "{session_id}"))
    memory.put(ChatMessage(role="user", content="My flight lands at noon."))
    memory.put(ChatMessage(role="assistant", content="Hi."))
    assert store.list_namespaces() == [("sessions", "s1")]


def test_tools_without_a_user_from_the_run_or_the_constructor_fail_closed(store):
    remember, recall, *_ = MemvaultToolSpec(store).to_tool_list()
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        remember.call(text="The user is allergic to peanuts.")
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        recall.call(query="peanuts")
    assert store.count() == 0
