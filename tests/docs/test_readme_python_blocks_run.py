"""Every Python block of the three READMEs runs as written: in a fresh process, offline, in an
empty folder that it leaves empty.

Each block is saved as a script and run by itself with ``$MEMVAULT_DOCS_PYTHON`` (default: this
interpreter), so the same test checks the blocks against the built wheels in a clean virtual
environment: ``MEMVAULT_DOCS_PYTHON=/tmp/wheelcheck/bin/python uv run pytest tests/docs -m slow``.
The block's process may connect to nothing but this machine (a ``sitecustomize`` on its
``PYTHONPATH`` refuses other hosts), and what it stores must go to a temporary folder, not to the
folder it was run in. Blocks run one per core at a time, each test waiting for its own; they are
marked ``slow`` (one to two minutes in all on two cores).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
READMES = ["README.md", "adapters/langchain/README.md", "adapters/llamaindex/README.md"]
PYTHON = os.environ.get("MEMVAULT_DOCS_PYTHON") or sys.executable
FENCE = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)

OFFLINE = """
import socket

LOCAL = {"localhost", "127.0.0.1", "::1"}


def refuse(host):
    if host not in LOCAL:
        raise OSError(f"a README block tried to reach {host!r}; README blocks must run offline")


getaddrinfo, connect = socket.getaddrinfo, socket.socket.connect


def local_getaddrinfo(host, *args, **kwargs):
    refuse(host.decode() if isinstance(host, bytes) else host)
    return getaddrinfo(host, *args, **kwargs)


def local_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        refuse(address[0])
    return connect(self, address)


socket.getaddrinfo, socket.socket.connect = local_getaddrinfo, local_connect
"""


def readme_blocks() -> dict[str, str]:
    """Every ```python block of the READMEs, by ``README:LINE`` of its opening fence."""
    blocks = {}
    for readme in READMES:
        text = (REPO / readme).read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            blocks[f"{readme}:{text.count(chr(10), 0, match.start()) + 1}"] = match.group(1)
    return blocks


BLOCKS = readme_blocks()


def run(block: str, folder: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``block`` as a script in an empty folder; return the result and what it left there."""
    for name in ("site", "tmp", "cwd"):
        (folder / name).mkdir()
    (folder / "site" / "sitecustomize.py").write_text(OFFLINE)
    script = folder / "block.py"
    script.write_text(block)
    env = {**os.environ, "PYTHONPATH": str(folder / "site"), "TMPDIR": str(folder / "tmp")}
    result = subprocess.run(
        [PYTHON, str(script)],
        cwd=folder / "cwd",
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return result, sorted(path.name for path in (folder / "cwd").iterdir())


@pytest.fixture(scope="module")
def runs(request, tmp_path_factory):
    """The selected blocks, started at once on a pool of one worker per core."""
    params = [getattr(item, "callspec", None) for item in request.session.items]
    wanted = [
        param.params["block_id"]
        for param in params
        if param and param.params.get("block_id") in BLOCKS
    ]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        yield {
            block_id: pool.submit(run, BLOCKS[block_id], tmp_path_factory.mktemp("block"))
            for block_id in wanted
        }


def test_each_readme_has_python_blocks():
    assert {block_id.split(":")[0] for block_id in BLOCKS} == set(READMES)


@pytest.mark.slow
@pytest.mark.parametrize("block_id", list(BLOCKS), ids=list(BLOCKS))
def test_block_runs_offline_leaving_its_folder_empty(block_id: str, runs: dict[str, Future]):
    result, left_behind = runs[block_id].result()
    shown = textwrap.indent(BLOCKS[block_id], "    | ")
    assert result.returncode == 0, f"{block_id} failed:\n{shown}\n{result.stderr}"
    assert not left_behind, f"{block_id} wrote {left_behind} where it was run:\n{shown}"
