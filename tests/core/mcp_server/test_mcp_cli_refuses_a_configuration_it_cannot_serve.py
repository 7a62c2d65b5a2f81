"""``memvault mcp`` refuses, in one line and before any store is opened, a configuration it
cannot serve: no ``--user`` (or another id of the template), naming the option that gives
the id (``--user ID``, ``--id team=VALUE``) rather than serving some other namespace, or a
config file asking for a model."""

import json

from tests.core.cli import cli


def test_no_user_is_refused(tmp_path):
    folder = tmp_path / "store"
    result = cli("mcp", store=folder, check=False)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "needs 'user_id' as a non-empty string: pass --user ID" in result.stderr
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
    assert "needs 'team' as a non-empty string: pass --id team=VALUE" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_config_asking_for_a_model_is_refused(tmp_path):
    config = tmp_path / "memvault.json"
    config.write_text(json.dumps({"extraction": True, "ids": {"user_id": "alice"}}))
    result = cli("mcp", "--config", str(config), store=tmp_path / "s", check=False)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "extraction and reconciliation" in result.stderr
    assert not (tmp_path / "s").exists()
