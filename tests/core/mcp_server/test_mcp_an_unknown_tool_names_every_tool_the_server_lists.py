"""A call to a tool the server does not have is an error result naming every tool that
``list_tools`` lists, ``history`` among them."""

import pytest

from memvault.mcp_server import build_server
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")


async def test_the_error_names_the_listed_tools():
    scope = hashing_memory().scope(user_id="alice")
    async with mcp.Client(build_server(scope)) as client:
        listed = sorted(tool.name for tool in (await client.list_tools()).tools)
        result = await client.call_tool("bogus", {})
    assert "history" in listed
    assert result.is_error
    assert result.content[0].text == f"no memory tool 'bogus'; the tools are {listed}"
