"""The block's budgets (``max_memory_chars``, ``max_block_chars``) are ints from 100 to
1,000,000 characters wherever they are given (``AgentMemory``, a config, ``format_memories``);
anything else raises ``InvalidArgumentError`` naming the budget."""

import pytest

from memvault import AgentMemory, InvalidArgumentError, MemoryConfig, format_memories
from tests.core.memory_fixtures import hashing_memory

BAD = [0, 99, -5, 1_000_001, 2.5, "2000", None, True]


@pytest.mark.parametrize("field", ["max_memory_chars", "max_block_chars"])
@pytest.mark.parametrize("value", BAD, ids=repr)
def test_a_bad_budget_is_named(field, value):
    with pytest.raises(InvalidArgumentError, match=f"{field} must be an int from 100 to 1000000"):
        hashing_memory(**{field: value})
    with pytest.raises(InvalidArgumentError, match=f"{field} must be an int from 100"):
        format_memories([], **{field: value})
    if value != "2000":  # a config (pydantic) reads it as 2000, as it reads k
        with pytest.raises(InvalidArgumentError, match=f"field {field}:"):
            MemoryConfig(**{field: value})


def test_the_bounds_themselves_are_budgets():
    memory = hashing_memory(max_memory_chars=100, max_block_chars=1_000_000)
    assert (memory.max_memory_chars, memory.max_block_chars) == (100, 1_000_000)
    config = {"path": ":memory:", "embedder": "hashing:64", "max_memory_chars": 100}
    assert AgentMemory.from_config(config).max_memory_chars == 100
