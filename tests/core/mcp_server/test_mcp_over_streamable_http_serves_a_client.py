"""``memvault mcp --transport http`` serves streamable HTTP on 127.0.0.1: the SDK's client
at ``http://127.0.0.1:PORT/mcp`` lists the tools and remembers and recalls a fact."""

import pytest

from tests.core.mcp_http import http_server

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")


@pytest.mark.slow  # a CLI subprocess
async def test_a_client_talks_to_the_server_over_http(tmp_path):
    with http_server(tmp_path, "alice") as url:
        async with mcp.Client(url) as client:
            names = sorted(tool.name for tool in (await client.list_tools()).tools)
            await client.call_tool("remember", {"text": "The user sails on weekends."})
            recalled = await client.call_tool("recall", {"query": "sails"})
    assert names == ["forget", "history", "list_memories", "recall", "remember"]
    assert "The user sails on weekends." in recalled.content[0].text
