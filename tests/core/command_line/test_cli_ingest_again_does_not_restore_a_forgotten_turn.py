"""`memvault ingest FILE` run again does not bring back a turn forgotten since: neither one
deleted (`forget KEY`) nor one erased (`forget KEY --erase`), whose text then comes back in no
memory, context or history entry (the neighbours whose contexts the erase rewrote are kept as
it left them). `--json` names the keys skipped."""

import json

import pytest

from memvault import MemoryStore
from memvault.conversations import source_id
from tests.core.cli import cli, cli_json

ADA = ("users", "ada")
SESSION = [
    "My cat is called Miso.",
    "I was diagnosed with diabetes last year.",
    "I love hiking in the Alps.",
    "My sister is called Ana.",
]


def locomo(path):
    turns = [{"speaker": "Ada", "dia_id": f"D1:{n}", "text": t} for n, t in enumerate(SESSION, 1)]
    conversation = {
        "speaker_a": "Ada",
        "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": turns,
    }
    path.write_text(json.dumps(conversation))
    return path


@pytest.mark.parametrize("erase", [False, True], ids=["forgotten", "erased"])
def test_a_forgotten_turn_stays_forgotten(tmp_path, erase):
    store, file = tmp_path / "store", locomo(tmp_path / "ada.json")
    key = f"{source_id(file)}:D1:2"
    cli("ingest", str(file), "-n", "users/ada", store=store)
    cli("forget", key, "-n", "users/ada", *(["--erase"] if erase else []), store=store)

    said = cli_json("ingest", str(file), "-n", "users/ada", store=store)

    assert cli("get", key, "-n", "users/ada", store=store, check=False).exit_code == 1
    if erase:
        export = cli("export", "-", store=store).stdout
        with MemoryStore(store) as opened:
            keys = {json.loads(line)["key"] for line in export.splitlines()}
            history = [e.to_json() for k in keys | {key} for e in opened.history(ADA, k)]
        assert export.count("diabetes") == 0
        assert json.dumps(history).count("diabetes") == 0
    assert said["forgotten"] == [key]
