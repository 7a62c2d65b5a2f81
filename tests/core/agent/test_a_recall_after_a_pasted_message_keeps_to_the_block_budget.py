"""After a user pasted a 280 KB message, the block a prompt receives keeps to the memory's
budgets and still holds the other memories: ``scope.context(...)`` is at most
``max_block_chars`` plus its header and fences, with the default budgets or a config's.
(Issue 29: ``scope.context("what is my dog called?")`` returned 280,329 characters.)"""

import json

import pytest

from memvault import AgentMemory
from memvault.context import DEFAULT_MAX_BLOCK_CHARS, DEFAULT_MEMORY_HEADER

PASTED = "We hiked for hours and I took photos of the lake. " * 5600  # 280,000 characters
OVERHEAD = len(DEFAULT_MEMORY_HEADER) + len("\n```memories\n") + len("\n```")
CONFIG = {"path": ":memory:", "embedder": "hashing:64"}


@pytest.mark.parametrize(
    ("budgets", "block_chars"),
    [({}, DEFAULT_MAX_BLOCK_CHARS), ({"max_memory_chars": 500, "max_block_chars": 800}, 800)],
    ids=["default budgets", "budgets from the config"],
)
def test_the_block_is_bounded_and_keeps_the_dogs_name(budgets, block_chars):
    scope = AgentMemory.from_config({**CONFIG, **budgets}).scope(user_id="ada", session_id="t1")
    scope.save_turns([{"role": "user", "content": "My dog is called Rex."}])
    scope.save_turns([{"role": "user", "content": PASTED}])

    block = scope.context("what is my dog called?")

    assert len(block) <= block_chars + OVERHEAD
    texts = [json.loads(line)["text"] for line in block.splitlines() if line.startswith("{")]
    assert "My dog is called Rex." in texts
    assert any(text.endswith(" more characters]") for text in texts)
