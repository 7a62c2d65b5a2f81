"""JSON nested deeper than Python's parser reads is one "JSON nested too deeply" error line,
the same for a conversation file, a --filter and an mcp --config file."""

import pytest

from memvault import MemoryStore
from memvault.json_text import TOO_DEEP
from tests.core.cli import cli

DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000
"""Deeper than any Python's parser reads (3.13 reads 3,000 levels; 3.10-3.12 about 1,000)."""


@pytest.mark.parametrize("command", ["ingest", "search", "mcp"])
def test_deep_json_is_one_line(tmp_path, command):
    store = tmp_path / "store"
    MemoryStore(store).close()
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    args = {
        "ingest": ("ingest", str(deep), "-n", "users/x"),
        "search": ("search", "bike", "--filter", DEEP),
        "mcp": ("mcp", "--user", "alice", "--config", str(deep)),
    }[command]
    result = cli(*args, store=store, check=False)
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert f"({TOO_DEEP} for Python's parser)" in line or f": {TOO_DEEP} for" in line
