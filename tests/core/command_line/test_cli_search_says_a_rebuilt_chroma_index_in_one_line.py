"""A store whose Chroma index is damaged repairs itself (issue 28, 29): `memvault search` finds
what was stored and says so in one plain `warning:` line on stderr, not a Python warning with a
source line."""

from memvault import MemoryStore
from tests.core.cli import cli

NS = ("users", "alice")


def test_search_says_the_index_was_rebuilt_in_one_line(tmp_path):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
        store.put(NS, "dog", {"text": "Alice adopted a dog named Rex"})
    (folder / "chroma.sqlite3").write_bytes(b"not a database at all " * 200)

    result = cli("search", "what does alice drink", "-k", "1", store=folder)

    assert "[users/alice tea] Alice drinks green tea" in result.stdout
    line, scores = result.stderr.splitlines()
    assert scores.startswith("score: hybrid, ")
    assert line.startswith(f"warning: the vector index of {folder}")
    assert "could not be opened" in line and "rebuilt from the record file" in line
    assert "MemvaultWarning" not in line and ".py:" not in line
    again = cli("search", "tea", store=folder).stderr.splitlines()
    assert [line for line in again if not line.startswith("score: ")] == []  # repaired once
