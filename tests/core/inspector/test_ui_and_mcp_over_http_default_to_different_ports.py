"""``memvault ui`` and ``memvault mcp --transport http`` default to different ports (8766 and
8765), so both run side by side without ``--port``."""

import pytest
import typer.main

from memvault.cli import app
from memvault.inspector import DEFAULT_PORT


def _port_default(command: str) -> object:
    group = typer.main.get_command(app)
    (port,) = [p for p in group.commands[command].params if p.name == "port"]
    return port.default


def test_ui_and_mcp_default_to_different_ports():
    assert _port_default("ui") == DEFAULT_PORT == 8766
    assert _port_default("mcp") == 8765
    pytest.importorskip("starlette", reason="needs the extra memvault[ui]")
    from memvault.inspector.app import serve

    assert serve.__kwdefaults__["port"] == DEFAULT_PORT
