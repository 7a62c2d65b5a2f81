"""``memvault mcp`` without ``--user`` (or the template's other ids) refuses to start, naming
the id to give, rather than serving some other namespace; no store is opened."""

import json

from tests.core.cli import cli


def test_no_user_is_refused(tmp_path):
    folder = tmp_path / "store"
    result = cli("mcp", store=folder, check=False)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "user_id" in result.stderr
    assert not folder.exists()


def test_a_template_id_missing_from_the_config_is_refused(tmp_path):
    config = tmp_path / "memvault.json"
    config.write_text(
        json.dumps({"namespace": ["teams", "{team}", "{user_id}"], "embedder": "hashing:64"})
    )
    result = cli(
        "mcp", "--config", str(config), "--user", "alice", store=tmp_path / "s", check=False
    )
    assert result.exit_code == 1
    assert "team" in result.stderr and result.stderr.count("\n") == 1
