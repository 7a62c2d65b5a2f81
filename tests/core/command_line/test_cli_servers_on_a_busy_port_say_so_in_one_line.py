"""`memvault mcp --transport http` and `memvault ui` on a port in use: one line naming the port
and the fix, exit status 1, instead of uvicorn's raw bind error."""

import socket

import pytest

from memvault import MemoryStore
from tests.core.cli import cli


@pytest.fixture
def busy_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        yield taken.getsockname()[1]


@pytest.mark.parametrize(
    ("command", "fix", "extra"),
    [
        (("mcp", "--user", "alice", "--transport", "http"), "give another --port", ("mcp", "mcp")),
        (
            ("ui", "--no-browser"),
            "give another --port, or --port 0 for a free one",
            ("starlette", "ui"),
        ),
    ],
)
def test_a_busy_port_is_one_error_line(tmp_path, busy_port, command, fix, extra):
    module, name = extra
    pytest.importorskip(module, reason=f"needs the extra memvault[{name}]")
    MemoryStore(tmp_path / "store").close()
    result = cli(*command, "--port", str(busy_port), store=tmp_path / "store", check=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: cannot listen on 127.0.0.1 port {busy_port} (Address already in use): {fix}"
    ]
