"""Export to JSON Lines and import into another store keeps everything, and a bad file
changes nothing."""

import json

import pytest

from memvault import ImportFormatError, InvalidArgumentError


def test_round_trip_keeps_text_metadata_namespaces_times_and_ttl(new_store, clock, tmp_path):
    source = new_store()
    source.put(("users", "alice"), "tea", {"text": "likes tea", "tags": ["a"], "n": None})
    source.put(("users", "bob", "work"), "job", {"text": "nurse", "since": 2020}, ttl=3600)
    clock.advance(5)
    source.put(("users", "alice"), "tea", {"text": "likes green tea", "tags": ["a", "b"]})
    exported = tmp_path / "memories.jsonl"
    assert source.export_jsonl(exported) == 2
    target = new_store()
    assert target.import_jsonl(exported) == 2
    for namespace, key in [(("users", "alice"), "tea"), (("users", "bob", "work"), "job")]:
        assert target.get(namespace, key) == source.get(namespace, key)
    assert target.get(("users", "bob", "work"), "job").expires_at == 1_700_000_000.0 + 3600
    assert target.search(("users",), query="green tea")[0].key == "tea"


def test_export_of_a_prefix_only(new_store, tmp_path):
    store = new_store()
    store.put(("a",), "k", {"text": "x"})
    store.put(("b",), "k", {"text": "y"})
    assert store.export_jsonl(tmp_path / "a.jsonl", ("a",)) == 1
    line = json.loads((tmp_path / "a.jsonl").read_text())
    assert line["namespace"] == ["a"] and "score" not in line


def test_bad_line_imports_nothing(new_store, tmp_path):
    store = new_store()
    good = {
        "namespace": ["a"],
        "key": "k",
        "value": {"text": "x"},
        "created_at": 1.0,
        "updated_at": 1.0,
        "expires_at": None,
    }
    bad = dict(good, key="k2", value={"no_text": 1})
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ImportFormatError, match="line 2"):
        store.import_jsonl(path)
    assert store.count() == 0
    with pytest.raises(ImportFormatError, match="cannot read"):
        store.import_jsonl(tmp_path / "missing.jsonl")


def test_bad_field_is_named_and_non_utf8_is_refused(new_store, tmp_path):
    store = new_store()
    path = tmp_path / "bad.jsonl"
    line = {
        "namespace": ["a"],
        "key": "k",
        "value": {"text": "x"},
        "created_at": "yesterday",
        "updated_at": 1.0,
        "expires_at": None,
    }
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(ImportFormatError, match="line 1 .*created_at"):
        store.import_jsonl(path)
    path.write_bytes(b"\xff\xfe not utf-8\n")
    with pytest.raises(ImportFormatError, match="not UTF-8"):
        store.import_jsonl(path)
    assert store.count() == 0


def test_export_to_a_missing_folder_is_a_clear_error(new_store, tmp_path):
    store = new_store()
    store.put(("a",), "k", {"text": "x"})
    with pytest.raises(InvalidArgumentError, match="cannot write"):
        store.export_jsonl(tmp_path / "missing" / "out.jsonl")
    with pytest.raises(InvalidArgumentError, match="cannot write"):
        store.export_jsonl(tmp_path)
