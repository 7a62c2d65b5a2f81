"""A usage error (unknown option or command, missing argument, bad or out-of-range option value,
an option on the wrong side of the command) prints one `error:` line naming the option and exits
with status 2, before any store is made."""

import re

import pytest

from tests.core.cli import EXAMPLE, cli


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search"], "missing argument 'query'"),
        (["search", "tea", "--lmit", "3"], "no such option.*--lmit"),
        (["search", "tea", "-k", "abc"], "'-k' / '--limit'"),
        (["search", "tea", "-k", "0"], "'-k' / '--limit'"),
        (["search", "tea", "--mode", "fuzzy"], "'--mode'"),
        (["search", "tea", "--json", "true"], "unexpected extra argument"),
        (["list", "--offset", "-1"], "'--offset'"),
        (["namespaces", "--max-depth", "0"], "'--max-depth'"),
        (["ingest", str(EXAMPLE), "-n", "users/alice", "--ttl", "-5"], "'--ttl'"),
        (["cleanup", "--max-age", "0"], "'--max-age'"),
        (["forgot", "key", "-n", "users"], "no such command 'forgot'"),
        (["stats", "--dsn", "postgresql://db"], "--dsn goes before the command"),
        (["search", "tea", "--schema", "mine"], "--schema goes before the command"),
        (["--json", "stats"], "--json goes after the command"),
        (["--ttl", "5", "stats"], "--ttl is an option of ingest, after the command"),
        (["--dsn", "--json", "stats"], "invalid value for '--dsn'.*connection string"),
    ],
)
def test_usage_error_is_one_line_with_status_2(tmp_path, args, message):
    store = tmp_path / "store"
    result = cli(*args, store=store, check=False)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert re.search(message, result.stderr, re.IGNORECASE)
    assert "limit must be" not in result.stderr
    assert result.stderr.rstrip().endswith("-h')")  # points at the command's help
    assert not store.exists()
