"""The lines between the block's fences take at most ``max_block_chars`` characters (default
12,000): memories go in in the order given (best first), the first that does not fit whole is
cut to what is left, and the block ends there; the whole block is that budget plus its header
and fences."""

import json

from memvault import format_memories
from memvault.context import DEFAULT_MAX_BLOCK_CHARS, DEFAULT_MEMORY_HEADER
from memvault.items import MemoryItem

FENCES_AND_NEWLINES = len("\n```memories\n") + len("\n```")


def item(number: int, text: str) -> MemoryItem:
    return MemoryItem(
        namespace=("users", "ada"),
        key=f"m{number}",
        value={"text": text},
        created_at=1_700_000_000.0,
        updated_at=1_700_000_000.0,
    )


TEXTS = [f"Memory number {n}: " + "we walked the dogs along the river. " * 40 for n in range(10)]
ITEMS = [item(n, text) for n, text in enumerate(TEXTS)]  # each about 1,460 characters


def body(block: str) -> str:
    return block.split("```memories\n", 1)[1].rsplit("\n```", 1)[0]


def test_best_first_until_full_then_one_cut_to_fit():
    block = format_memories(ITEMS, max_block_chars=4000)

    lines = [json.loads(line) for line in body(block).split("\n")]
    assert len(body(block)) <= 4000
    assert [line["text"] for line in lines[:-1]] == TEXTS[:2]  # the best two whole
    last = lines[-1]["text"]
    assert last.startswith("Memory number 2: ") and last.endswith(" more characters]")
    assert len(block) <= 4000 + len(DEFAULT_MEMORY_HEADER) + FENCES_AND_NEWLINES


def test_by_default_ten_long_memories_keep_to_12000_characters():
    block = format_memories(ITEMS * 2)
    assert 11_500 < len(body(block)) <= DEFAULT_MAX_BLOCK_CHARS
    assert len(block) <= DEFAULT_MAX_BLOCK_CHARS + len(DEFAULT_MEMORY_HEADER) + FENCES_AND_NEWLINES


def test_a_memory_that_fits_whole_is_never_cut():
    short = [item(n, f"Fact {n}: the user likes tea number {n}.") for n in range(50)]
    block = format_memories(short, max_block_chars=1000)
    lines = body(block).split("\n")
    assert len(body(block)) <= 1000
    assert all(
        json.loads(line)["text"] == f"Fact {n}: the user likes tea number {n}."
        for n, line in enumerate(lines)
    )
