"""``memvault mcp --transport http`` in a fresh process, for the tests of the HTTP transport."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tests.core.cli import REPO


def free_port() -> int:
    """A TCP port nothing listens on, on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def http_server(folder: Path, user: str, seconds: float = 60) -> Iterator[str]:
    """Serve ``user``'s memories in ``folder`` (hashing embedder); yields the server's URL."""
    config = folder / "memvault.json"
    config.write_text(json.dumps({"embedder": "hashing:64", "path": str(folder / "store")}))
    port = free_port()
    command = [sys.executable, "-m", "memvault", "mcp", "--config", str(config)]
    command += ["--user", user, "--transport", "http", "--port", str(port)]
    server = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + seconds
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline, f"the server did not listen on port {port}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)
