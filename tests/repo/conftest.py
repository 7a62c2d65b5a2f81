"""The three distributions built with ``uv build`` from a copy of the checkout in which the
READMEs' examples have been run (their stores and exports lie where the examples write them)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import external

REPO = Path(__file__).resolve().parents[2]
PROJECTS = [Path("."), Path("adapters/langchain"), Path("adapters/llamaindex")]
# What following the READMEs, and .ci/run, leave in the folder they are run from.
LEFT_BEHIND = [
    "memories/chroma.sqlite3",
    "memories-2/chroma.sqlite3",
    "other/chroma.sqlite3",
    "memories.jsonl",
    ".venv-py310/pyvenv.cfg",
]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the three sdists and wheels.

    Built offline without build isolation, by the hatchling locked in the dev group: an isolated
    build resolves hatchling (and, below Python 3.11, tomli) from uv's cache, which holds them
    or not depending on what ran on the machine before.
    """
    uv = external.uv_command()
    checkout = tmp_path_factory.mktemp("checkout") / "memvault"
    shutil.copytree(
        REPO,
        checkout,
        ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__", ".*_cache", "dist"),
    )
    for project in PROJECTS:
        for name in LEFT_BEHIND:
            (checkout / project / name).parent.mkdir(parents=True, exist_ok=True)
            (checkout / project / name).write_text("left behind")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [
            uv,
            "build",
            "--offline",
            "--no-build-isolation",
            "--python",
            sys.executable,
            "--all-packages",
            "--out-dir",
            str(out),
        ],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return out
