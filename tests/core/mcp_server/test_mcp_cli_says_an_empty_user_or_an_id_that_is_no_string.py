"""`memvault mcp --user ''` says the user is empty, and a config's id that is not a string
(``{"ids": {"user_id": 5}}``) says so naming the option or the config's "ids", in one line and
before any store is opened (not the LangChain adapter's "run's context or config")."""

import json

from tests.core.cli import cli


def test_an_empty_user_is_said_to_be_empty(tmp_path):
    result = cli("mcp", "--user", "", store=tmp_path / "s", check=False)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "--user" in line and "is empty ('')" in line
    assert not (tmp_path / "s").exists()


def test_an_id_that_is_no_string_names_the_config(tmp_path):
    config = tmp_path / "memvault.json"
    config.write_text(json.dumps({"ids": {"user_id": 5}}))
    result = cli("mcp", "--config", str(config), store=tmp_path / "s", check=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: the namespace users/{user_id} needs 'user_id' as a non-empty string, got 5: "
        'pass --user ID (or give it in the --config file\'s "ids" as a string)'
    ]
    assert not (tmp_path / "s").exists()
