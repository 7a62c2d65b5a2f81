"""``memvault mcp --transport http`` binds a loopback address only: another host is refused in
one line naming --allow-remote, before any store is opened or created."""

from tests.core.cli import cli


def test_another_host_is_refused(tmp_path):
    folder = tmp_path / "store"
    result = cli(
        "mcp",
        "--transport",
        "http",
        "--host",
        "0.0.0.0",
        "--user",
        "alice",
        store=folder,
        check=False,
    )
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: host 0.0.0.0 is not this machine's loopback")
    assert "--allow-remote" in result.stderr
    assert not folder.exists()


def test_an_unknown_transport_is_a_usage_error(tmp_path):
    result = cli("mcp", "--transport", "sse", "--user", "alice", store=tmp_path, check=False)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid value for '--transport'")
