"""A scope is resolved from the run's ids; a missing id never falls back to a shared namespace."""

import pytest

from memvault import InvalidArgumentError
from memvault.errors import InvalidNamespaceError
from tests.core.memory_fixtures import hashing_memory


def test_missing_or_empty_ids_are_refused():
    memory = hashing_memory()
    with pytest.raises(InvalidNamespaceError, match="user_id"):
        memory.scope()
    with pytest.raises(InvalidNamespaceError):
        memory.scope(user_id="")
    with pytest.raises(InvalidNamespaceError):
        hashing_memory(namespace="users")


def test_session_comes_from_session_id_or_thread_id():
    memory = hashing_memory()
    assert memory.scope(user_id="a", thread_id="t1").session_id == "t1"
    assert memory.scope({"user_id": "a", "session_id": "s1", "thread_id": "t1"}).session_id == "s1"
    assert memory.scope(user_id="a").namespace == ("users", "a")


def test_bad_options_name_the_field():
    with pytest.raises(InvalidArgumentError, match="similarity_threshold"):
        hashing_memory(similarity_threshold=2)
    with pytest.raises(InvalidArgumentError, match="k must be"):
        hashing_memory(k=0)
    with pytest.raises(InvalidArgumentError, match="name"):
        hashing_memory(name="two words")
    scope = hashing_memory().scope(user_id="a")
    with pytest.raises(InvalidArgumentError, match="metadata may not set kind"):
        scope.remember("I like tea.", {"kind": "secret"})
    with pytest.raises(InvalidArgumentError, match="text"):
        scope.remember("  ...  ")
    with pytest.raises(InvalidArgumentError, match="messages"):
        scope.save_turns("I like tea.")
