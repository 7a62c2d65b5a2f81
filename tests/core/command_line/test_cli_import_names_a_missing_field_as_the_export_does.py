"""`memvault import` of a line without `created_at` (or another field an export line holds) is
refused in the export format's words (issue 29): one `error:` line naming the line number and
the missing field, the fields an item line holds, status 1, and nothing imported."""

import json

import pytest

from memvault import MemoryStore
from tests.core.bad_inputs import import_line
from tests.core.cli import cli


@pytest.mark.parametrize("missing", ["created_at", "updated_at", "key", "value", "namespace"])
def test_a_missing_field_is_named_with_its_line(tmp_path, missing):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "bob"), "dog", {"text": "Bob has a dog"})
    lacking = json.loads(import_line())
    del lacking[missing]
    export = tmp_path / "export.jsonl"
    export.write_text(import_line(key="cat") + "\n" + json.dumps(lacking) + "\n")

    result = cli("import", str(export), store=folder, check=False)

    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert f"line 2 is not a memvault item: {missing} is missing (an item line is" in line
    assert '"created_at" and "updated_at" (Unix seconds)' in line
    assert "Field required" not in line
    assert cli("stats", "--json", store=folder).stdout.count('"memories": 1') == 1
