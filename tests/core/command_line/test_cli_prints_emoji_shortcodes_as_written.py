"""A stored ``:thumbs_up:`` prints as those characters, not as the emoji rich would make of it."""

from memvault import MemoryStore
from tests.core.cli import cli


def test_a_shortcode_in_a_stored_text_prints_as_written(tmp_path):
    folder = tmp_path / "store"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "k", {"text": "reply with :thumbs_up: :smile:"})
    printed = cli("list", store=folder).stdout
    assert "reply with :thumbs_up: :smile:" in printed
    assert "\U0001f44d" not in printed
