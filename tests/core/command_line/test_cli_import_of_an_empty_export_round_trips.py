"""An empty JSON Lines file (what an export of an empty namespace writes) imports nothing,
without an error, from a file or from stdin: the round trip holds for the empty store too."""

from tests.core.cli import cli


def test_an_empty_export_imports_zero_memories(tmp_path):
    exported = tmp_path / "empty.jsonl"
    exported.write_text("", encoding="utf-8")
    for args, stdin in (((str(exported),), None), (("-",), "")):
        result = cli("import", *args, store=tmp_path / "store", stdin=stdin)
        assert "imported 0" in result.stdout + result.stderr
