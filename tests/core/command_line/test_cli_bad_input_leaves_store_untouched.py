"""Bad input gives one line on stderr, exit status 1, and an unchanged store."""

import pytest

from tests.core.cli import EXAMPLE, cli, cli_json


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ingest", "{missing}", "-n", "users/alice"], "cannot read the file"),
        (["ingest", "{malformed}", "-n", "users/alice"], "malformed JSON"),
        (["ingest", "{wrong_schema}", "-n", "users/alice"], "not a conversation"),
        (["ingest", str(EXAMPLE), "-n", "users//x"], "empty"),
        (["search", "tea", "--filter", '{"n": {"$regex": 1}}'], "unknown operator"),
        (["import", "{malformed}"], "line 1 is not a memvault item"),
        (["search", "tea", "--filter", "{bad"], "--filter is not JSON"),
        (["ingest", "{not_utf8}", "-n", "users/alice"], "not UTF-8"),
        (["ingest", "{bad_line}", "-n", "users/alice"], "malformed JSON at line 3"),
        (["search", "tea", "-n", "users/a\\x"], "backslash"),
        (["get", "nothing-here", "-n", "users/alice"], "no memory 'nothing-here' in users/alice"),
    ],
)
def test_bad_input(tmp_path, args, message):
    store = tmp_path / "store"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    files = {
        "missing": tmp_path / "missing.json",
        "malformed": tmp_path / "malformed.json",
        "wrong_schema": tmp_path / "schema.json",
    }
    files["malformed"].write_text('{"role": "user", ')
    files["not_utf8"] = tmp_path / "binary.json"
    files["not_utf8"].write_bytes(b"\xff\xfe[]")
    files["bad_line"] = tmp_path / "chat.jsonl"
    files["bad_line"].write_text('{"role": "user", "content": "a"}\n\n{"role": "user",\n')
    files["wrong_schema"].write_text('{"hello": "world"}')
    args = [str(files[a[1:-1]]) if a[1:-1] in files else a for a in args]
    result = cli(*args, store=store, check=False)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    assert cli_json("stats", store=store)["memories"] == 10


def test_reading_a_store_that_does_not_exist_is_an_error(tmp_path):
    result = cli("search", "tea", store=tmp_path / "typo", check=False)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no memvault store at")
    assert not (tmp_path / "typo").exists()
