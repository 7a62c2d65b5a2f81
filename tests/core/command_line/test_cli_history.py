"""`memvault history KEY -n NS` shows every change to one memory, oldest first: time (ISO 8601
UTC), event, source and the text added, changed (before -> after) or removed, also after the
memory was forgotten; `--json` gives the entries; a key with no history is one `error:` line
and exit status 1."""

import re

from memvault.conversations import source_id
from tests.core.cli import chat, cli, cli_json

LINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  (\w+)\s+(\w+)\s+(.*)")


def test_history_shows_every_change_even_after_forget(tmp_path):
    store = tmp_path / "store"
    file = chat(tmp_path / "job.json", "I work as a nurse.")
    cli("ingest", str(file), "-n", "users/lena", store=store)
    file.write_text(file.read_text().replace("a nurse", "a doctor"))
    cli("ingest", str(file), "-n", "users/lena", store=store)
    key = f"{source_id(file)}:1"
    cli("forget", key, "-n", "users/lena", store=store)

    shown = cli("history", key, "-n", "users/lena", store=store).stdout.splitlines()
    assert [LINE.fullmatch(line).groups() for line in shown] == [
        ("add", "turn", '"I work as a nurse."'),
        ("update", "turn", '"I work as a nurse." -> "I work as a doctor."'),
        ("delete", "cli", '"I work as a doctor."'),
    ]
    entries = cli_json("history", key, "-n", "users/lena", store=store)
    assert [(e["event"], e["namespace"], e["key"]) for e in entries] == [
        ("add", "users/lena", key),
        ("update", "users/lena", key),
        ("delete", "users/lena", key),
    ]
    assert entries[1]["before"]["text"] == "I work as a nurse."
    assert entries[2]["after"] is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", entries[0]["time"])

    above = cli("history", key, "-n", "users", store=store, check=False)
    assert above.exit_code == 1 and above.stdout == ""
    assert above.stderr == f"error: no history of {key!r} in users\n"
    bad = cli("history", key, "-n", "users//lena", store=store, check=False)
    assert bad.exit_code == 1 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
