"""`MemvaultToolSpec(store, user_id=...)` refuses an id that cannot fill a namespace when it is
built, not at the agent's first tool call (issue 28, finding 5); no id at all is fine: the run
gives it."""

import pytest
from llama_index.memory.memvault import MemvaultToolSpec

from memvault.errors import InvalidNamespaceError


@pytest.mark.parametrize("user_id", [5, "", b"alice"])
def test_a_bad_user_id_is_refused_at_once(store, user_id):
    with pytest.raises(InvalidNamespaceError, match="'user_id' as a non-empty string"):
        MemvaultToolSpec(store, user_id=user_id)


def test_a_bad_session_id_is_refused_at_once(store):
    with pytest.raises(InvalidNamespaceError, match="'session_id' as a non-empty string"):
        MemvaultToolSpec(store, user_id="alice", session_id=7)


def test_no_user_id_builds_for_the_run_to_give(store):
    assert MemvaultToolSpec(store).user_id is None
