"""A role written with spaces around it (``" User "``) is the speaker ``User``, not
``" User "``."""

import json

from tests.core.cli import cli, cli_json


def test_a_spaced_role_is_stored_stripped(tmp_path):
    log = tmp_path / "chat.json"
    log.write_text(json.dumps([{"role": " User ", "content": "I moved to Porto"}]))
    cli("ingest", str(log), "-n", "users/ada", store=tmp_path / "store")
    [item] = cli_json("list", "-n", "users/ada", store=tmp_path / "store")
    assert item["value"]["speaker"] == "User"
