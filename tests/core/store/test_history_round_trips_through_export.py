"""An export carries every key's history (deleted memories' too) and an import restores it as it
was: export -> import into a new store -> `history()` equal, on the on-disk store and through the
CLI. An export written before history was kept (items only) still imports."""

import json

from memvault import HashingEmbedder, MemoryStore
from memvault.testing import FakeClock
from tests.core.cli import cli

ALICE = ("users", "alice")
KEYS = [(ALICE, "tea"), (ALICE, "gone"), (("users", "bob"), "job"), (("orgs",), "hq")]


def fill(store, clock):
    store.put(ALICE, "tea", {"text": "Alice likes tea", "n": 1}, source="tool")
    clock.advance(5)
    store.put(ALICE, "tea", {"text": "Alice likes green tea"}, event="merge", source="extractor")
    store.put(ALICE, "gone", {"text": "said in passing"}, source="turn")
    store.delete(ALICE, "gone", source="tool")
    store.put(("users", "bob"), "job", {"text": "Bob is a nurse"}, ttl=3600)
    store.put(("orgs",), "hq", {"text": "Acme is in Porto"})


def test_history_round_trips_through_export_and_import(tmp_path):
    clock = FakeClock()
    source = MemoryStore(tmp_path / "a", embedder=HashingEmbedder(64), clock=clock.time)
    fill(source, clock)
    exported = tmp_path / "users.jsonl"
    assert source.export_jsonl(exported, ("users",)) == 2
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    assert {tuple(line["namespace"]) for line in lines} == {ALICE, ("users", "bob")}
    clock.advance(60)
    target = MemoryStore(tmp_path / "b", embedder=HashingEmbedder(64), clock=clock.time)
    assert target.import_jsonl(exported) == 2
    for namespace, key in KEYS[:3]:
        assert target.history(namespace, key) == source.history(namespace, key), key
    assert target.history(("orgs",), "hq") == []  # not under the prefix exported
    source.close()
    target.close()


def test_history_round_trips_through_the_cli(tmp_path):
    clock = FakeClock()
    with MemoryStore(tmp_path / "a", clock=clock.time) as source:
        fill(source, clock)
        expected = {key: source.history(namespace, key) for namespace, key in KEYS}
    exported = tmp_path / "all.jsonl"
    cli("export", str(exported), store=tmp_path / "a")
    cli("import", str(exported), store=tmp_path / "b")
    with MemoryStore(tmp_path / "b") as target:
        for namespace, key in KEYS:
            assert target.history(namespace, key) == expected[key], key


def test_an_export_of_items_only_still_imports(tmp_path):
    old = tmp_path / "old.jsonl"
    item = {
        "namespace": ["users", "alice"],
        "key": "tea",
        "value": {"text": "Alice likes tea"},
        "created_at": 1.0,
        "updated_at": 2.0,
        "expires_at": None,
    }
    old.write_text(json.dumps(item) + "\n")
    with MemoryStore(tmp_path / "s", embedder=HashingEmbedder(64)) as store:
        assert store.import_jsonl(old) == 1
        (entry,) = store.history(ALICE, "tea")
        assert (entry.event, entry.source, entry.after) == ("add", "import", item["value"])
