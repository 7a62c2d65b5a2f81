"""A store folder that cannot be created (a file on the way, /proc, /sys) is refused with a
typed error naming the path and the fix: ``path`` from Python, ``--path`` from the CLI."""

import pytest

from memvault import HashingEmbedder, InvalidArgumentError, MemoryStore
from tests.core.cli import EXAMPLE, cli


def unwritable(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine")
    return [blocker / "store", "/proc/memvault", "/sys/memvault"]


def test_memory_store_names_path_and_the_fix(tmp_path):
    for folder in unwritable(tmp_path):
        with pytest.raises(InvalidArgumentError) as raised:
            MemoryStore(folder, embedder=HashingEmbedder(32))
        message = str(raised.value)
        assert message.startswith(f"path {folder}: the store folder cannot be created (")
        assert message.endswith("give path a folder you may write (it is created if missing)")


def test_the_cli_names_path_option(tmp_path):
    for folder in unwritable(tmp_path):
        result = cli("ingest", str(EXAMPLE), "-n", "users/x", "--path", str(folder), check=False)
        assert result.exit_code == 1
        [line] = result.stderr.splitlines()
        assert line.startswith(f"error: --path {folder}: the store folder cannot be created (")
        assert line.endswith("give --path a folder you may write (it is created if missing)")
