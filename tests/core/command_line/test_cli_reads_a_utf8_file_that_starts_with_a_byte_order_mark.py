"""A conversation or an export saved with a UTF-8 byte order mark (Windows' way) is read as
the same file without one, by `memvault ingest` and `memvault import`."""

import json

from memvault import MemoryStore
from tests.core.cli import cli

BOM = "\ufeff"
MESSAGES = [{"role": "user", "content": "I own a boat."}]


def test_ingest_reads_json_and_json_lines_with_a_bom(tmp_path):
    store = tmp_path / "store"
    for name, text in [
        ("chat.json", json.dumps(MESSAGES)),
        ("chat.jsonl", "\n".join(json.dumps(m) for m in MESSAGES)),
    ]:
        path = tmp_path / name
        path.write_text(BOM + text, encoding="utf-8")
        cli("ingest", str(path), "-n", "users/bob", store=store)
    with MemoryStore(store) as opened:
        assert [i.text for i in opened.search(("users", "bob"))] == ["I own a boat."] * 2


def test_import_reads_an_export_with_a_bom(tmp_path):
    source, target, export = tmp_path / "a", tmp_path / "b", tmp_path / "export.jsonl"
    with MemoryStore(source) as store:
        store.put(("users", "bob"), "boat", {"text": "I own a boat."})
    cli("export", str(export), store=source)
    export.write_text(BOM + export.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli("import", str(export), store=target).stdout.startswith("imported 1 memories")
    with MemoryStore(target) as store:
        assert store.get(("users", "bob"), "boat").text == "I own a boat."
