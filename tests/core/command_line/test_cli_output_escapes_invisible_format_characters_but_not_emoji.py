"""Bidi controls, separators and zero-width characters in a stored text, key or namespace print
escaped (``\\u202e``), so a memory cannot reorder or hide what the CLI prints; emoji sequences
(a ZWJ between two emoji, a subdivision flag's tags) print as they are."""

from memvault import MemoryStore
from tests.core.cli import cli

TECHNOLOGIST = "\U0001f469\u200d\U0001f4bb"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"

UNSEEN = [
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "\u2028",
    "\u2029",
    "\u200b",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u200d",  # a joiner that joins no emoji
    "\U000e0041",  # a tag character outside a flag
]


def escaped(text):
    return text.encode("unicode_escape").decode("ascii")


def test_unseen_characters_print_escaped_in_text_key_and_namespace(tmp_path):
    folder, unseen = tmp_path / "store", "".join(UNSEEN)
    with MemoryStore(folder) as store:
        store.put_many(
            ("users", f"z{unseen}"),
            [(f"k{char}ey", {"text": f"abc{char}gnp.exe"}) for char in UNSEEN],
        )
    where = f"users/z{escaped(unseen)}"
    listed = cli("list", "-n", "users", "--limit", "100", store=folder).stdout
    searched = cli("search", "abc", "-n", "users", "--limit", "100", store=folder).stdout
    for char in UNSEEN:
        for printed in (listed, searched):
            assert f"[{where} k{escaped(char)}ey] abc{escaped(char)}gnp.exe" in printed
    assert cli("namespaces", store=folder).stdout.splitlines() == [where]
    stats = cli("stats", store=folder).stdout
    assert f"  {where}: {len(UNSEEN)}" in stats
    assert not any(char in listed + searched + stats for char in UNSEEN)


def test_emoji_sequences_print_whole(tmp_path):
    folder = tmp_path / "store"
    text = f"I am a {TECHNOLOGIST} from {SCOTLAND}"
    with MemoryStore(folder) as store:
        store.put(("users", "alice"), "k", {"text": text})
    assert f"] {text} (" in cli("list", store=folder).stdout
