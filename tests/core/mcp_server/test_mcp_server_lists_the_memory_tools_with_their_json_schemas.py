"""An MCP client sees the five memory tools, each with the JSON schema of its arguments: the
core tools' own schemas (``replaces``, ``as_of``, ``erase`` among them), and no argument that
names a user or a namespace."""

import pytest

from memvault.mcp_server import build_server
from memvault.memory_tools import MEMORY_TOOLS
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client


async def test_the_tools_and_their_schemas_are_listed():
    server = build_server(hashing_memory().scope(user_id="alice"))
    async with Client(server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert sorted(tools) == ["forget", "history", "list_memories", "recall", "remember"]
    for spec in MEMORY_TOOLS:
        assert tools[spec.name].input_schema == spec.args_schema.model_json_schema()
        assert tools[spec.name].description == spec.description
    assert set(tools["remember"].input_schema["properties"]) == {"text", "replaces"}
    assert set(tools["recall"].input_schema["properties"]) == {"query", "limit", "as_of"}
    assert set(tools["forget"].input_schema["properties"]) == {"memory", "erase"}
    assert tools["history"].input_schema["required"] == ["memory"]
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert not {"user_id", "namespace", "user"} & set(tool.input_schema["properties"])
