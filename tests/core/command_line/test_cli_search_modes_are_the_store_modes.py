"""`memvault search --mode` offers exactly the store's search modes (cli.SearchMode lists them)."""

from memvault.cli import DEFAULT_MODE, SearchMode
from memvault.store import DEFAULT_SEARCH_MODE, SEARCH_MODES


def test_cli_modes_are_the_store_modes():
    assert [mode.value for mode in SearchMode] == list(SEARCH_MODES)
    assert DEFAULT_MODE.value == DEFAULT_SEARCH_MODE
