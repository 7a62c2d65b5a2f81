"""Run the memvault CLI in a fresh process, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def memvault(*args: str, store: Path, check: bool = True) -> subprocess.CompletedProcess:
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
