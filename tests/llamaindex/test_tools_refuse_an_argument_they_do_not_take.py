"""A memory tool called with an argument it does not take refuses the call, naming it, instead
of dropping it silently (issue 28, finding 5: `recall(query=..., k=0)` answered as if `k` were
not there)."""

import pytest
from llama_index.memory.memvault import MemvaultToolSpec

from memvault import InvalidArgumentError


def test_an_unknown_argument_is_named(store):
    tools = {t.metadata.name: t for t in MemvaultToolSpec(store, user_id="ada").to_tool_list()}
    with pytest.raises(InvalidArgumentError, match="recall: argument k: Extra inputs"):
        tools["recall"].call(query="fact", k=0)
    with pytest.raises(InvalidArgumentError, match="remember: argument importance"):
        tools["remember"].call(text="I am vegan.", importance=5)
    assert store.search(("users", "ada")) == []
