"""`memvault forget KEY --erase` erases the memory and what states it, and the turns beside it
are written again without it: an export (`export -`) and the history of every key then hold
its text 0 times, and `history KEY` ends with an "erase" line. A key forgotten earlier
without --erase, with only its history left, is erased too; a key with no history at all is
an error (exit status 1)."""

import json

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


def ingested(tmp_path):
    store, file = tmp_path / "store", tmp_path / "ada.json"
    file.write_text(
        json.dumps(
            {
                "speaker_a": "Ada",
                "speaker_b": "Bo",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ada", "dia_id": f"D1:{n + 1}", "text": text}
                    for n, text in enumerate(SESSION)
                ],
                "qa": [],
            }
        )
    )
    cli("ingest", str(file), "-n", "users/ada", store=store)
    return store, [f"{source_id(file)}:D1:{n}" for n in range(1, 5)]


def held(store, word):
    export = cli("export", "-", store=store).stdout
    keys = {json.loads(line)["key"] for line in export.splitlines()}
    with MemoryStore(store) as opened:
        histories = [json.dumps([e.to_json() for e in opened.history(ADA, k)]) for k in keys]
    return export.count(word), sum(text.count(word) for text in histories)


def test_the_text_is_in_no_export_line_or_history_after_erase(tmp_path):
    store, keys = ingested(tmp_path)
    assert held(store, "diabetes")[0] > 0

    said = cli_json("forget", keys[1], "-n", "users/ada", "--erase", store=store)

    assert said == {"erased": [keys[1]], "namespace": "users/ada"}
    assert held(store, "diabetes") == (0, 0)
    shown = cli("history", keys[1], "-n", "users/ada", store=store).stdout.splitlines()
    assert shown[-1].split()[1:4] == ["erase", "cli", "erased:"]
    cat = cli_json("get", keys[0], "-n", "users/ada", store=store)[0]
    assert "Miso" in cat["value"]["context"] and cat["valid_from"] > 0


def test_a_key_forgotten_before_is_erased_from_its_history(tmp_path):
    store, keys = ingested(tmp_path)
    cli("forget", keys[1], "-n", "users/ada", store=store)
    assert held(store, "diabetes")[1] > 0

    assert cli("forget", keys[1], "-n", "users/ada", "--erase", store=store).stdout == (
        f"erased {keys[1]} in users/ada\n"
    )
    assert held(store, "diabetes") == (0, 0)
    missing = cli("forget", "no-such-key", "-n", "users/ada", "--erase", store=store, check=False)
    assert missing.exit_code == 1 and missing.stderr.startswith("error: no memory")
