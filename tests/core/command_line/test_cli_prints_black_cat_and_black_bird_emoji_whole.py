"""The CLI prints the black cat and black bird emoji (a ZWJ before U+2B1B) as they are, not with
their joiner escaped as ``\\u200d``."""

from memvault import MemoryStore
from tests.core.cli import cli

BLACK_CAT = "\U0001f408\u200d\u2b1b"
BLACK_BIRD = "\U0001f426\u200d\u2b1b"


def test_black_cat_and_black_bird_print_whole(tmp_path):
    folder = tmp_path / "store"
    text = f"My cat is a {BLACK_CAT} and my bird a {BLACK_BIRD}"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "k", {"text": text})
    printed = cli("list", store=folder).stdout
    assert f"] {text} (" in printed
    assert "\\u200d" not in printed
