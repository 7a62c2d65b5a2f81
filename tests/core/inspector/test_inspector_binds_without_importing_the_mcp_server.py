"""The inspector checks its host and binds its port through :mod:`memvault.listening`: importing
its app does not import the MCP server module."""

import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="needs the extra memvault[ui]")


def test_the_inspector_app_does_not_import_the_mcp_server():
    code = "import sys, memvault.inspector.app; print('memvault.mcp_server' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
