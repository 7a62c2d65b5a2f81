"""``memvault mcp --transport http`` serves streamable HTTP on 127.0.0.1: the SDK's client
at ``http://127.0.0.1:PORT/mcp`` lists the tools and remembers and recalls a fact."""

import json
import socket
import subprocess
import sys
import time

import pytest

from tests.core.cli import REPO

mcp = pytest.importorskip("mcp", reason="needs the MCP SDK: the extra memvault[mcp]")
Client = mcp.Client


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(port: int, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen on port {port}")


@pytest.mark.slow  # a CLI subprocess
async def test_a_client_talks_to_the_server_over_http(tmp_path):
    config = tmp_path / "memvault.json"
    config.write_text(json.dumps({"embedder": "hashing:64", "path": str(tmp_path / "store")}))
    port = free_port()
    command = [sys.executable, "-m", "memvault", "mcp", "--config", str(config)]
    command += ["--user", "alice", "--transport", "http", "--port", str(port)]
    server = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(port, server)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            names = sorted(tool.name for tool in (await client.list_tools()).tools)
            await client.call_tool("remember", {"text": "The user sails on weekends."})
            recalled = await client.call_tool("recall", {"query": "sails"})
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert names == ["forget", "history", "list_memories", "recall", "remember"]
    assert "The user sails on weekends." in recalled.content[0].text
