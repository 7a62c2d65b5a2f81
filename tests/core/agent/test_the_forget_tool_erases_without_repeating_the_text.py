"""The ``forget`` tool's ``erase`` erases what it forgets and answers with the ids only: the
erased text is not written into the conversation again (where a checkpointer would keep
it); ``erase`` is a bool, strictly."""

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidArgumentError
from memvault.memory_tools import ERASED_LINE, run_memory_tool

SECRET = "The user owes the bank 40,000 euros."


@pytest.fixture
def scope():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    return AgentMemory(store).scope(user_id="ada")


def test_erase_answers_with_the_ids_and_leaves_no_history_text(scope):
    secret = scope.remember(SECRET)
    said = run_memory_tool(scope, "forget", {"memory": secret.key, "erase": True})

    assert said == f"Erased 1 memory (ids {secret.key}).\n{ERASED_LINE}"
    entries = scope.store.history(scope.namespace, secret.key)
    assert [e.event for e in entries] == ["add", "erase"]
    assert all(e.before is None and e.after is None for e in entries)


def test_without_erase_the_tool_shows_what_it_forgot_and_the_history_keeps_it(scope):
    secret = scope.remember(SECRET)
    said = run_memory_tool(scope, "forget", {"memory": secret.key})
    assert said.startswith("Forgot 1 memory:") and "40,000 euros" in said
    assert scope.store.history(scope.namespace, secret.key)[-1].before["text"] == SECRET


@pytest.mark.parametrize("erase", ["true", 1, None])
def test_erase_must_be_a_bool(scope, erase):
    secret = scope.remember(SECRET)
    with pytest.raises(InvalidArgumentError, match="erase"):
        run_memory_tool(scope, "forget", {"memory": secret.key, "erase": erase})
    assert scope.store.get(scope.namespace, secret.key) is not None
