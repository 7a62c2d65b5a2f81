"""A value's text longer than ``MAX_TEXT_CHARS`` (32,000 characters) is refused by every way in
with a typed error naming the limit and the fix (``InvalidValueError``; an import file's line,
``ImportFormatError``), and nothing is written; a text of
exactly the limit is stored. (Issue 29: ``put`` took a 5 MB text, which every later prompt
recalling it carried whole.)"""

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import ImportFormatError, InvalidValueError
from memvault.items import MAX_TEXT_CHARS
from tests.core.bad_inputs import import_line

ALICE = ("users", "alice")
FIVE_MB = "All work and no play makes Jack a dull boy. " * 113_637  # 5,000,028 characters


@pytest.fixture
def store():
    return MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))


def test_put_of_a_5_mb_text_names_the_limit_and_writes_nothing(store):
    with pytest.raises(InvalidValueError) as refused:
        store.put(ALICE, "novel", {"text": FIVE_MB})
    assert str(refused.value) == (
        'items[0] value["text"] has 5,000,028 characters, more than the 32,000 a memory may '
        "hold (memvault.items.MAX_TEXT_CHARS); split it into several memories, or store a "
        "summary and keep the document elsewhere"
    )
    assert store.count(ALICE) == 0


def test_put_many_and_import_refuse_it_too(store, tmp_path):
    too_long = "x" * (MAX_TEXT_CHARS + 1)
    with pytest.raises(InvalidValueError, match=r'items\[1\] value\["text"\] has 32,001 char'):
        store.put_many(ALICE, [("short", {"text": "fine"}), ("long", {"text": too_long})])
    export = tmp_path / "export.jsonl"
    export.write_text(import_line(value={"text": too_long}) + "\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"line 1 .* 32,001 characters.*MAX_TEXT_CHARS"):
        store.import_jsonl(export)
    assert store.count(ALICE) == 0


def test_a_text_of_exactly_the_limit_is_stored(store):
    text = "y" * MAX_TEXT_CHARS
    assert store.put(ALICE, "full", {"text": text}).text == text
