"""`memvault search ""` (or a blank query) is a usage error (issue 29): one `error:` line saying
the query is empty and that `memvault list` shows the most recent memories, status 2, instead of
answering with the most recent memories as if they matched."""

import pytest

from memvault import MemoryStore
from tests.core.cli import cli


@pytest.mark.parametrize("query", ["", "   "])
def test_blank_query_is_a_usage_error(tmp_path, query):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "tea", {"text": "Alice drinks green tea"})

    result = cli("search", query, store=folder, check=False)

    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: invalid value for 'QUERY': is empty")
    assert "'memvault list' shows the most recent memories" in line
