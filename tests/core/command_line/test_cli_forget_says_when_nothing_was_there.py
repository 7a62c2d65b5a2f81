"""`memvault forget` of a key that is not in that namespace says so and exits with status 1;
it never reaches into the namespaces below."""

from memvault.conversations import source_id
from tests.core.cli import chat, cli, cli_json


def test_forget_of_an_absent_key_is_an_error(tmp_path):
    store = tmp_path / "store"
    file = chat(tmp_path / "job.json", "I work as a nurse.")
    cli("ingest", str(file), "-n", "users/lena", store=store)
    key = f"{source_id(file)}:1"

    above = cli("forget", key, "-n", "users", store=store, check=False)
    assert above.exit_code == 1 and above.stdout == ""
    assert above.stderr == f"error: no memory {key!r} in users\n"
    assert cli_json("get", key, "-n", "users/lena", store=store)[0]["value"]["text"] == (
        "I work as a nurse."
    )

    assert cli_json("forget", key, "-n", "users/lena", store=store) == {
        "forgotten": key,
        "namespace": "users/lena",
    }
    again = cli("forget", key, "-n", "users/lena", store=store, check=False)
    assert again.exit_code == 1 and again.stderr == f"error: no memory {key!r} in users/lena\n"
