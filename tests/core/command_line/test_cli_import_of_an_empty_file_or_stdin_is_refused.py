"""``memvault import`` of an empty file or empty stdin is refused in one line, as ``ingest``
refuses an empty conversation file, instead of saying "imported 0 memories"."""

from tests.core.cli import cli


def test_an_empty_file_is_refused(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    done = cli("import", str(empty), store=tmp_path / "store", check=False)
    assert done.exit_code == 1 and done.stdout == ""
    assert done.stderr.startswith(f"error: {empty} is empty; give a file written by")


def test_empty_stdin_is_refused(tmp_path):
    done = cli("import", "-", store=tmp_path / "store", stdin="", check=False)
    assert done.exit_code == 1 and done.stdout == ""
    assert done.stderr.startswith("error: stdin is empty; give a file written by")
