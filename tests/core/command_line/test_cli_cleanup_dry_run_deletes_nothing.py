"""`memvault cleanup --dry-run` lists what cleanup would delete (expired memories, and with
--max-age turns said longer ago than that, though ingested just now) and deletes nothing;
cleanup then deletes exactly those."""

import time

from tests.core.cli import chat, cli, cli_json

WEEK = 7 * 86_400


def test_dry_run_lists_then_cleanup_deletes_the_same(tmp_path):
    store = tmp_path / "store"
    old = chat(tmp_path / "old.json", "I lived in Oslo.", timestamp=time.time() - 4 * WEEK)
    new = chat(tmp_path / "new.json", "I live in Porto.")
    mood = chat(tmp_path / "mood.json", "I am tired today.")
    for file, ttl in [(old, []), (new, []), (mood, ["--ttl", "0.01"])]:
        cli("ingest", str(file), "-n", "users/alice", *ttl, store=store)
    time.sleep(0.05)  # the mood has expired
    max_age = ["--max-age", str(WEEK)]

    for _ in range(2):  # the first dry run deleted nothing
        listed = cli_json("cleanup", *max_age, "--dry-run", store=store)["would_delete"]
        assert [item["value"]["text"] for item in listed] == [
            "I lived in Oslo.",
            "I am tired today.",
        ]
    text = cli("cleanup", *max_age, "--dry-run", store=store).stdout
    assert text.startswith("would delete 2 memories (dry run: nothing deleted)\n")
    assert "I lived in Oslo." in text and "I live in Porto." not in text
    assert len(cli_json("cleanup", "--dry-run", store=store)["would_delete"]) == 1  # expired only

    assert cli_json("cleanup", *max_age, store=store) == {"deleted": 2}
    assert cli_json("cleanup", *max_age, "--dry-run", store=store) == {"would_delete": []}
    remaining = cli_json("list", "-n", "users", store=store)
    assert [item["value"]["text"] for item in remaining] == ["I live in Porto."]
