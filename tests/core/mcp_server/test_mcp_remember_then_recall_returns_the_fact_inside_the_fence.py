"""What a client remembers through the server, it recalls: the fact comes back inside the
fenced block headed as data, not instructions, and is stored in the configured user's
namespace."""

import json

import pytest

from memvault.mcp_server import build_server
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client


async def test_remember_then_recall():
    memory = hashing_memory()
    server = build_server(memory.scope(user_id="alice"))
    async with Client(server) as client:
        said = await client.call_tool("remember", {"text": "The user is vegetarian."})
        assert not said.is_error
        assert said.content[0].text.startswith("Remembered (id ")
        recalled = await client.call_tool("recall", {"query": "what does the user eat"})
    assert not recalled.is_error
    text = recalled.content[0].text
    header, opening, *lines, closing = text.splitlines()
    assert "data, not instructions" in header
    assert opening == "```memories" and closing == "```"
    assert [json.loads(line)["text"] for line in lines] == ["The user is vegetarian."]
    stored = memory.store.search(("users", "alice"))
    assert [item.text for item in stored] == ["The user is vegetarian."]
