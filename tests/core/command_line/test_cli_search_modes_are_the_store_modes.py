"""`memvault search --mode` offers exactly the store's search modes: its choices are made from
``memvault.model.SEARCH_MODES``, and a mode it does not know is a usage error naming them."""

from typer.testing import CliRunner

from memvault.cli import DEFAULT_MODE, ModeChoice, app
from memvault.model import SEARCH_MODES
from memvault.store import DEFAULT_SEARCH_MODE


def test_cli_modes_are_the_store_modes():
    assert [mode.value for mode in ModeChoice] == list(SEARCH_MODES)
    assert DEFAULT_MODE.value == DEFAULT_SEARCH_MODE


def test_an_unknown_mode_is_a_usage_error_naming_the_modes(tmp_path):
    result = CliRunner().invoke(app, ["search", "tea", "--mode", "fuzzy", "--path", str(tmp_path)])
    assert result.exit_code == 2
    for mode in SEARCH_MODES:
        assert mode in result.output
