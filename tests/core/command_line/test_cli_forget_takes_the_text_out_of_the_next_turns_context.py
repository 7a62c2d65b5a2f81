"""`memvault forget KEY` takes the memory's text out of the turns around it (issue 29,
finding 1): after it, the next turn's `get --json` still showed the forgotten turn in its
`context`, and a search for its words found that turn."""

import json

from memvault.conversations import source_id
from tests.core.cli import cli, cli_json

ALLERGY = "Ada: I am allergic to peanuts."


def test_the_next_turns_no_longer_quote_a_forgotten_turn(tmp_path):
    store, file = tmp_path / "store", tmp_path / "ada.json"
    session = ["I am allergic to peanuts.", "My sister is called Ana.", "I work as a nurse."]
    file.write_text(
        json.dumps(
            {
                "speaker_a": "Ada",
                "speaker_b": "Bo",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": ("Ada", "Bo")[n % 2], "dia_id": f"D1:{n + 1}", "text": text}
                    for n, text in enumerate(session)
                ],
                "qa": [],
            }
        )
    )
    cli("ingest", str(file), "-n", "users/ada", store=store)
    allergy, sister, nurse = (f"{source_id(file)}:D1:{n}" for n in (1, 2, 3))

    def context(key):
        return cli_json("get", key, "-n", "users/ada", store=store)[0]["value"]["context"]

    before = {key: context(key) for key in (sister, nurse)}
    assert all(ALLERGY in text for text in before.values())

    cli("forget", allergy, "-n", "users/ada", store=store)

    for key, text in before.items():
        assert context(key) == text.replace(f"{ALLERGY}\n", ""), key
    found = cli_json("search", "peanuts", "-n", "users/ada", "--mode", "lexical", store=store)
    assert found == []
