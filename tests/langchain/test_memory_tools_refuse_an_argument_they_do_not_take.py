"""A memory tool called with an argument it does not take refuses the call instead of dropping
it silently (issue 28, finding 5: `recall({"query": "fact", "k": 0})` answered as if `k` were
not there). LangChain checks a tool's arguments against its schema, and its error for a call
that breaks it is pydantic's ValidationError."""

import pytest
from langchain_memvault import create_memory_tools
from pydantic import ValidationError

from tests.langchain.fakes import small_store


def test_an_unknown_argument_is_named():
    store = small_store()
    tools = {tool.name: tool for tool in create_memory_tools(store)}
    run = {"configurable": {"user_id": "ada"}}
    with pytest.raises(ValidationError, match="k\n  Extra inputs are not permitted"):
        tools["recall"].invoke({"query": "fact", "k": 0}, config=run)
    with pytest.raises(ValidationError, match="importance"):
        tools["remember"].invoke({"text": "I am vegan.", "importance": 5}, config=run)
    assert store.search(("users", "ada")) == []
    assert tools["recall"].args_schema.model_json_schema()["additionalProperties"] is False
