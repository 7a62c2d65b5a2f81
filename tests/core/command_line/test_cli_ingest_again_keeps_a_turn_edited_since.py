"""`memvault ingest FILE` run again keeps a turn edited since by another source (the inspector
writes with source "ui"): its memory keeps the edit, its history gets no entry, the output
says so, and the turns nobody changed are left as they were."""

from memvault import MemoryStore
from memvault.conversations import source_id
from tests.core.cli import EXAMPLE, cli, cli_json

ALICE = ("users", "alice")
EDITED = "Maya is allergic to peanuts and cashews."


def test_an_edited_turn_keeps_its_edit_and_the_others_are_unchanged(tmp_path):
    store, key = tmp_path / "store", f"{source_id(EXAMPLE)}:5"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    with MemoryStore(store) as opened:
        item = opened.get(ALICE, key)
        assert item is not None
        opened.put(ALICE, key, {**item.value, "text": EDITED}, source="ui")
    before = cli_json("list", "-n", "users/alice", "--limit", "100", store=store)

    said = cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store).stdout

    assert cli_json("list", "-n", "users/alice", "--limit", "100", store=store) == before
    with MemoryStore(store) as opened:
        assert opened.get(ALICE, key).value["text"] == EDITED
        assert [(e.event, e.source) for e in opened.history(ALICE, key)] == [
            ("add", "turn"),
            ("update", "ui"),
        ]
    assert said.strip().endswith("; kept 1 edited since, skipped 0 forgotten")
    assert said.startswith("ingested 9 turns ")
