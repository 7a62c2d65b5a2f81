"""`memvault export -` writes the JSON Lines to stdout, not to a file named `-` (issue 29), and
says what it exported on stderr, so stdout is the file alone and imports as one."""

from memvault import MemoryStore
from memvault.moments import validity_text
from tests.core.cli import cli


def test_export_to_dash_writes_stdout_and_imports_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "tea", {"text": "Alice likes tea ☕"})
        green = store.put(("users", "alice"), "tea", {"text": "Alice likes green tea ☕"})
        store.put(("users", "bob"), "pet", {"text": "Bob has a cat"})

    exported = cli("export", "-", "-n", "users/alice", store=folder)
    assert not (tmp_path / "-").exists()
    assert exported.stderr == "exported 1 memories\n"
    assert cli("export", "-", "--json", store=folder).stderr.split() == [
        "{",
        '"exported":',
        "2,",
        '"file":',
        '"-"',
        "}",
    ]
    file = tmp_path / "alice.jsonl"
    file.write_text(exported.stdout, encoding="utf-8")
    other = tmp_path / "other"
    cli("import", str(file), store=other)
    listed = cli("list", store=other).stdout.splitlines()
    when = validity_text(green.valid_from, None)
    assert listed == [f" 1. [users/alice tea] Alice likes green tea ☕ ({when})"]
    shown = cli("history", "tea", "-n", "users/alice", store=other).stdout.splitlines()
    assert [line.split()[1] for line in shown] == ["add", "update"]
