"""A namespace template segment with an unbalanced brace (or a format spec a str cannot take)
is an InvalidNamespaceError naming the segment, not Python's bare ValueError; the CLI says it
in one line."""

import json

import pytest

from memvault import resolve_namespace
from memvault.errors import InvalidNamespaceError
from tests.core.cli import cli


@pytest.mark.parametrize("segment", ["{user_id", "user_id}", "{user_id:d}", "{user_id!z}"])
def test_the_error_names_the_segment(segment):
    with pytest.raises(InvalidNamespaceError, match=f"namespace template segment '{segment}'"):
        resolve_namespace(("users", segment), {"user_id": "alice"})


def test_memvault_mcp_says_it_in_one_line(tmp_path):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"namespace": ["users", "{user_id"]}))
    result = cli("mcp", "--config", str(config), "--user", "alice", check=False)
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("error: namespace template segment '{user_id' is not a template")
