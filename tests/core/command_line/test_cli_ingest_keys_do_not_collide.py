"""Two conversation files of the same name in different folders keep their own memories in one
namespace; ingesting a file again updates its turns instead of storing them twice."""

from memvault.conversations import source_id
from tests.core.cli import chat, cli_json


def test_same_file_name_in_two_folders_keeps_both_conversations(tmp_path):
    store = tmp_path / "store"
    day1 = chat(tmp_path / "day1" / "chat.json", "I moved to Lisbon.", "My sister is Ana.")
    day2 = chat(tmp_path / "day2" / "chat.json", "I started a job at a bakery.", "I run daily.")

    first = cli_json("ingest", str(day1), "-n", "users/alice", store=store)
    second = cli_json("ingest", str(day2), "-n", "users/alice", store=store)

    assert first["source"] != second["source"]
    assert first["source"].startswith("chat-") and second["source"].startswith("chat-")
    listed = cli_json("list", "-n", "users/alice", store=store)
    assert sorted(item["value"]["text"] for item in listed) == [
        "I moved to Lisbon.",
        "I run daily.",
        "I started a job at a bakery.",
        "My sister is Ana.",
    ]
    assert {item["key"] for item in listed} == {
        f"{source_id(day1)}:1",
        f"{source_id(day1)}:2",
        f"{source_id(day2)}:1",
        f"{source_id(day2)}:2",
    }


def test_ingesting_a_file_again_updates_it_in_place(tmp_path):
    store = tmp_path / "store"
    log = chat(tmp_path / "chat.json", "I moved to Lisbon.", "My sister is Ana.")
    cli_json("ingest", str(log), "-n", "users/alice", store=store)
    cli_json("ingest", str(log), "-n", "users/alice", store=store)
    assert cli_json("stats", store=store)["memories"] == 2

    chat(log, "I moved to Lisbon.", "My sister is Ana.", "I adopted a cat.")  # the log grew
    cli_json("ingest", str(log), "-n", "users/alice", store=store)
    assert cli_json("stats", store=store)["memories"] == 3
