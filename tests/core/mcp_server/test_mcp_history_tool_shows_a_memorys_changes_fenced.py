"""The ``history`` tool shows a memory's changes oldest first, as JSON lines inside a fence
headed as data, not instructions; after an erase, no text of it is shown."""

import json

import pytest

from memvault.mcp_server import build_server
from tests.core.memory_fixtures import hashing_memory

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client


def text(result):
    assert not result.is_error, result.content
    return result.content[0].text


def entries(said):
    header, opening, *lines, closing = said.splitlines()
    assert "data, not instructions" in header
    assert opening == "```history" and closing == "```"
    return [json.loads(line) for line in lines]


async def test_history_of_a_replaced_then_erased_memory():
    async with Client(build_server(hashing_memory().scope(user_id="alice"))) as client:
        said = text(await client.call_tool("remember", {"text": "The user lives in Lisbon."}))
        key = said.removeprefix("Remembered (id ").split(")")[0]
        await client.call_tool("remember", {"text": "The user lives in Porto.", "replaces": key})
        history = entries(text(await client.call_tool("history", {"memory": key})))
        assert history[0]["event"] == "add"
        assert history[0]["after"] == "The user lives in Lisbon."
        assert len(history) == 2 and history[1]["before"] == "The user lives in Lisbon."

        await client.call_tool("forget", {"memory": key, "erase": True})
        erased = text(await client.call_tool("history", {"memory": key}))
    assert "Lisbon" not in erased
    assert [entry["event"] for entry in entries(erased)][-1] == "erase"
