"""``memvault ingest FILE`` run again on an unchanged file embeds nothing, and no memory's
history gets an entry whose value is unchanged: a turn with its time (LoCoMo, timestamped
messages) is left as it is; a turn without one moves to the new time, keeping its embedding."""

import json

import pytest

from tests.core.cli import EXAMPLE, chat, cli, cli_json
from tests.core.embedders import counting_every_store


@pytest.mark.parametrize("dated", [True, False], ids=["dated turns", "undated turns"])
def test_ingesting_an_unchanged_file_again_embeds_and_records_nothing(tmp_path, monkeypatch, dated):
    embedder = counting_every_store(monkeypatch)
    conversation = (
        EXAMPLE
        if dated
        else chat(tmp_path / "chat.json", "I moved to Porto in May.", "My cat is called Rui.")
    )
    store = tmp_path / "store"
    cli("ingest", str(conversation), "-n", "users/alice", store=store)
    first = cli_json("list", "-n", "users/alice", "--limit", "100", store=store)
    embedder.calls.clear()

    cli("ingest", str(conversation), "-n", "users/alice", store=store)

    assert embedder.calls == []
    again = cli_json("list", "-n", "users/alice", "--limit", "100", store=store)
    assert len(again) == len(first) >= 2
    if dated:  # left as it was
        assert again == first
    cli("export", str(tmp_path / "export.jsonl"), store=store)
    lines = map(json.loads, (tmp_path / "export.jsonl").read_text().splitlines())
    history = [(line["key"], line["event"]) for line in lines if line.get("kind") == "history"]
    assert history == [(item["key"], "add") for item in sorted(again, key=lambda i: i["key"])]
