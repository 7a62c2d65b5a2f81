"""`memvault export FILE` refuses a FILE that exists (issue 29): one `error:` line naming
`--force`, exit status 1, the file as it was; `--force` replaces it."""

from memvault import MemoryStore
from tests.core.cli import cli


def test_export_keeps_an_existing_file_unless_forced(tmp_path):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "tea", {"text": "Alice likes tea"})
    file = tmp_path / "memories.jsonl"
    file.write_text("an earlier export\n")

    refused = cli("export", str(file), "-n", "users/typo", store=folder, check=False)
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == (
        f"error: FILE {file} exists; give --force to replace it, or name another file\n"
    )
    assert file.read_text() == "an earlier export\n"

    forced = cli("export", str(file), "--force", store=folder)
    assert forced.stdout == f"exported 1 memories to {file}\n"
    assert '"text": "Alice likes tea"' in file.read_text()
