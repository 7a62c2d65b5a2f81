"""Run the memvault CLI as a user would: in this process (typer's CliRunner), or in a fresh one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from memvault.cli import app

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "trip-planning.json"


def cli(
    *args: str, store: Path | None = None, check: bool = True, stdin: str | bytes | None = None
):
    """Run ``memvault ARGS [--path STORE]`` in this process, with ``stdin`` as its standard
    input; the result has ``exit_code``, ``stdout`` and ``stderr``."""
    args = (*args, "--path", str(store)) if store else args
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="memvault")
    if check:
        assert result.exit_code == 0, result.stderr or result.exception
    return result


def cli_json(*args: str, store: Path):
    return json.loads(cli(*args, "--json", store=store).stdout)


def chat(path: Path, *texts: str, timestamp: float | None = None) -> Path:
    """Write a conversation file of user messages (optionally all said at ``timestamp``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    extra = {} if timestamp is None else {"timestamp": timestamp}
    path.write_text(json.dumps([{"role": "user", "content": t, **extra} for t in texts]))
    return path


def memvault(*args: str, store: Path, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``memvault ARGS --path STORE`` in a fresh process."""
    result = subprocess.run(
        [sys.executable, "-m", "memvault", *args, "--path", str(store)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def memvault_json(*args: str, store: Path):
    return json.loads(memvault(*args, "--json", store=store).stdout)
