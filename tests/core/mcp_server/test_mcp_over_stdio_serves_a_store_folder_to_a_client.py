"""``memvault mcp --path X --user ID`` run as a subprocess, as a desktop client starts it,
answers the SDK's client over stdio: the tools are listed, what is remembered is recalled,
and it is written in the folder under that user's namespace."""

import json
import sys

import pytest

from memvault import MemoryStore
from tests.core.cli import REPO

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client
StdioServerParameters = mcp.StdioServerParameters


@pytest.mark.slow  # a CLI subprocess
async def test_a_client_talks_to_the_server_over_stdio(tmp_path):
    folder = tmp_path / "store"
    config = tmp_path / "memvault.json"
    config.write_text(json.dumps({"embedder": "hashing:64"}))
    server = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "memvault",
            "mcp",
            "--config",
            str(config),
            "--path",
            str(folder),
            "--user",
            "alice",
        ],
        cwd=str(REPO),
    )
    async with Client(server, read_timeout_seconds=60) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        said = await client.call_tool("remember", {"text": "The user plays the cello."})
        recalled = await client.call_tool("recall", {"query": "cello"})
    assert names == ["forget", "history", "list_memories", "recall", "remember"]
    assert not said.is_error and said.content[0].text.startswith("Remembered (id ")
    assert "The user plays the cello." in recalled.content[0].text
    with MemoryStore(folder, embedder="hashing:64") as store:
        assert [i.text for i in store.search(("users", "alice"))] == ["The user plays the cello."]
