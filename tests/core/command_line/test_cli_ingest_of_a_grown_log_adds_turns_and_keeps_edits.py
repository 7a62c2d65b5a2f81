"""`memvault ingest FILE` of a chat log that grew since it was last ingested adds its new
turns and updates a turn whose text changed in the file, while a turn edited since by another
source keeps the edit."""

from memvault import MemoryStore
from memvault.conversations import source_id
from tests.core.cli import chat, cli

ALICE = ("users", "alice")


def test_a_grown_log_adds_its_new_turns_and_keeps_an_edit(tmp_path):
    store = tmp_path / "store"
    file = chat(tmp_path / "chat.json", "I live in Porto.", "My cat is Rui.", timestamp=1.7e9)
    source = source_id(file)
    cli("ingest", str(file), "-n", "users/alice", store=store)
    with MemoryStore(store) as opened:
        opened.put(ALICE, f"{source}:1", {"text": "I live in Lisbon."}, source="api")
    chat(file, "I live in Porto.", "My cat is Rui, a tabby.", "I run on Sundays.", timestamp=1.7e9)

    said = cli("ingest", str(file), "-n", "users/alice", store=store).stdout

    assert said.startswith("ingested 2 turns ")
    assert "; kept 1 edited since, skipped 0 forgotten" in said
    with MemoryStore(store) as opened:
        texts = [opened.get(ALICE, f"{source}:{n}").value["text"] for n in (1, 2, 3)]
    assert texts == ["I live in Lisbon.", "My cat is Rui, a tabby.", "I run on Sundays."]
