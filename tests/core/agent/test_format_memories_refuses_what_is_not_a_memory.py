"""`format_memories` given something other than memories raises a typed error naming it
(issue 28, finding 5: `format_memories([1, 2])` raised a raw AttributeError)."""

import pytest

from memvault import InvalidArgumentError, MemoryItem, format_memories


@pytest.mark.parametrize(
    ("items", "named"),
    [([1, 2], r"items\[0\] must be a MemoryItem"), ("text", "items must be a list"), (5, "items")],
)
def test_a_non_memory_is_named(items, named):
    with pytest.raises(InvalidArgumentError, match=named):
        format_memories(items)


def test_memories_still_render():
    item = MemoryItem(namespace=("u",), key="k", value={"text": "tea"}, created_at=0, updated_at=0)
    assert '"text": "tea"' in format_memories([item])
