"""A call with a bad argument (a wrong type, a made-up argument, an empty text, a date that is
no date, an unknown tool, a namespace the model chose) gets an error result naming what is
wrong, and the store is left as it was."""

import pytest

from memvault.mcp_server import build_server
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client

BAD_CALLS = [
    ("remember", {"text": 42}, "text"),
    ("remember", {}, "text"),
    ("remember", {"text": "   "}, "text"),
    ("remember", {"text": "I moved.", "namespace": ["users", "bob"]}, "namespace"),
    ("remember", {"text": "I moved.", "user_id": "bob"}, "user_id"),
    ("recall", {"query": "food", "limit": "5"}, "limit"),
    ("recall", {"query": "food", "limit": 500}, "limit"),
    ("recall", {"query": "food", "as_of": "last tuesday"}, "as_of"),
    ("forget", {"memory": "vegetarian", "erase": "yes"}, "erase"),
    ("list_memories", {"offset": -1}, "offset"),
    ("history", {}, "memory"),
    ("delete_everything", {}, "delete_everything"),
]


@pytest.mark.parametrize(("tool", "arguments", "named"), BAD_CALLS)
async def test_a_bad_call_is_refused_and_changes_nothing(tool, arguments, named):
    memory = hashing_memory()
    scope = memory.scope(user_id="alice")
    scope.remember("The user is vegetarian.")
    items = [(i.key, i.text, i.updated_at) for i in memory.store.search(("users",))]
    history = memory.store.history(("users", "alice"), items[0][0])
    async with Client(build_server(scope)) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert named in result.content[0].text
    assert [(i.key, i.text, i.updated_at) for i in memory.store.search(("users",))] == items
    assert memory.store.history(("users", "alice"), items[0][0]) == history
    assert memory.store.list_namespaces() == [("users", "alice")]
