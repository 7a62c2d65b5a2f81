"""`memvault import -` reads the JSON Lines from stdin, as `memvault export -` writes them to
stdout: an export piped into an import brings the memories and their history over (UTF-8 bytes
whatever the locale), and a bad line is one `error:` line naming the line of stdin, status 1,
nothing imported."""

import json

from memvault import MemoryStore
from tests.core.cli import cli, cli_json


def test_an_export_on_stdout_imports_from_stdin(tmp_path):
    folder, other = tmp_path / "store", tmp_path / "other"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "tea", {"text": "Alice likes tea ☕"})
        store.put(("users", "alice"), "tea", {"text": "Alice likes green tea ☕"})
        store.put(("users", "bob"), "pet", {"text": "Bob has a cat"})
    exported = cli("export", "-", store=folder).stdout

    imported = cli("import", "-", store=other, stdin=exported.encode("utf-8"))

    assert imported.stdout == "imported 2 memories\n"
    assert not (tmp_path / "-").exists()
    listed = cli("list", store=other).stdout
    assert "Alice likes green tea ☕" in listed and "Bob has a cat" in listed
    shown = cli("history", "tea", "-n", "users/alice", store=other).stdout.splitlines()
    assert [line.split()[1] for line in shown] == ["add", "update"]
    again = cli("import", "-", "--json", store=other, stdin=exported).stdout
    assert json.loads(again) == {"imported": 2, "file": "-"}


def test_a_bad_line_on_stdin_is_one_error_naming_it(tmp_path):
    folder, other = tmp_path / "store", tmp_path / "other"
    with MemoryStore(folder) as store:
        store.put(("users", "bob"), "pet", {"text": "Bob has a cat"})
    exported = cli("export", "-", store=folder).stdout

    bad = cli("import", "-", store=other, stdin=exported + "{not json\n", check=False)

    assert bad.exit_code == 1 and bad.stdout == ""
    [line] = bad.stderr.splitlines()
    bad_line = len(exported.splitlines()) + 1  # after the item's and its history's
    assert line.startswith(f"error: stdin: line {bad_line} is not a memvault item")
    assert str(tmp_path) not in line and "Traceback" not in line
    latin = cli("import", "-", store=other, stdin="Kater \xe4".encode("latin-1"), check=False)
    assert latin.stderr == "error: stdin is not UTF-8 text; export files are UTF-8\n"
    assert cli_json("stats", store=other)["memories"] == 0
