"""``memvault --version``, ``--help`` and a command's ``--help`` import neither the store nor the
libraries a command runs on (Chroma, onnxruntime, the tokenizer, numpy, the stemmer, psycopg),
so that they answer at once (the times are measured by ``bench/cli_start.py``)."""

import json
import subprocess
import sys

import pytest

from tests.core.cli import REPO

HEAVY = [
    "chromadb",
    "onnxruntime",
    "tokenizers",
    "numpy",
    "snowballstemmer",
    "psycopg",
    "memvault.store",
    "memvault.agent",
]
SCRIPT = f"""
import json, sys
from memvault.cli import main
sys.argv = ["memvault", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print("@@", json.dumps([name for name in {HEAVY!r} if name in sys.modules]))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "args", [["--version"], ["--help"], ["search", "--help"], ["ingest", "-h"]], ids=" ".join
)
def test_starting_the_cli_imports_no_store_library(args):
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=True,
    )
    assert result.stdout.startswith(("memvault ", "Usage: memvault"))
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("@@ ")]
    assert json.loads(line[3:]) == []
