"""Without the extra, ``memvault mcp`` says in one line what to install, not a traceback, and
opens no store."""

import sys

from tests.core.cli import cli


def test_a_missing_sdk_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp raises ImportError
    folder = tmp_path / "store"
    result = cli("mcp", "--user", "alice", store=folder, check=False)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the MCP server needs the MCP Python SDK: pip install 'memvault[mcp]'\n"
    )
    assert not folder.exists()
