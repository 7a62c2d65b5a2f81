"""Two servers over one store, configured for two users, each reach only their user's
memories: recall, list_memories, forget and history find nothing of the other's."""

import pytest

from memvault.mcp_server import build_server
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client


def text(result):
    assert not result.is_error, result.content
    return result.content[0].text


async def test_each_server_sees_its_own_user():
    memory = hashing_memory()
    alice = build_server(memory.scope(user_id="alice"))
    bob = build_server(memory.scope(user_id="bob"))
    async with Client(alice) as for_alice, Client(bob) as for_bob:
        said = text(await for_alice.call_tool("remember", {"text": "Alice keeps bees."}))
        key = said.removeprefix("Remembered (id ").split(")")[0]
        text(await for_bob.call_tool("remember", {"text": "Bob collects stamps."}))

        assert "Alice keeps bees." in text(await for_alice.call_tool("recall", {"query": "bees"}))
        assert "Bob" not in text(await for_alice.call_tool("list_memories", {}))
        assert (
            text(await for_bob.call_tool("recall", {"query": "Alice keeps bees"})).count("Alice")
            == 0
        )
        assert "Alice" not in text(await for_bob.call_tool("list_memories", {}))
        assert "No memory has the id" in text(await for_bob.call_tool("history", {"memory": key}))
        assert "nothing was forgotten" in text(await for_bob.call_tool("forget", {"memory": key}))
    assert [i.text for i in memory.store.search(("users", "alice"))] == ["Alice keeps bees."]
    assert [i.text for i in memory.store.search(("users", "bob"))] == ["Bob collects stamps."]
