"""A store folder whose record file and Chroma index are both damaged (issue 29): every command
prints one plain `error:` line naming the folder, both files and what to do, exits with status 1,
and moves or changes nothing; it never opens the store empty ("0 memories", exit 0)."""

import pytest

from memvault import HashingEmbedder, MemoryStore
from tests.core.cli import cli

NS = ("users", "alice")
GARBAGE = b"not a database at all " * 200


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    folder = tmp_path_factory.mktemp("damaged") / "store"
    with MemoryStore(folder, embedder=HashingEmbedder(64)) as store:
        store.put(NS, "tea", {"text": "Alice drinks green tea"})
    for name in ("chroma.sqlite3", "memvault.records.sqlite3"):
        (folder / name).write_bytes(GARBAGE)
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ["stats"],
        ["search", "tea"],
        ["list"],
        ["namespaces"],
        ["get", "tea", "-n", "users/alice"],
        ["export", "-"],
        ["cleanup"],
    ],
)
def test_every_command_refuses_the_store_in_one_line(damaged, command):
    before = sorted(path.name for path in damaged.iterdir())

    result = cli(*command, store=damaged, check=False)

    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    line = result.stderr.strip()
    assert line.startswith("error: the store folder ")
    assert str(damaged) in line
    assert "memvault.records.sqlite3" in line and "vector index" in line
    assert "Restore the folder from a backup" in line
    assert sorted(path.name for path in damaged.iterdir()) == before  # nothing moved aside
    for name in ("chroma.sqlite3", "memvault.records.sqlite3"):
        assert (damaged / name).read_bytes() == GARBAGE
