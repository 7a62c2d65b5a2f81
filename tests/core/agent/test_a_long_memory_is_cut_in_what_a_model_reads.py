"""A memory longer than ``max_memory_chars`` (default 2,000) reaches a prompt or a tool result cut
to it, ending ``… [truncated, N more characters]``; the store keeps it whole, and a recall
returns it whole."""

import json

from memvault.context import DEFAULT_MAX_MEMORY_CHARS
from memvault.memory_tools import run_memory_tool
from tests.core.memory_fixtures import hashing_memory

NOTES = ("My dog Rex loves the beach and chasing gulls at dawn. " * 100).strip()  # 5,399 chars


def memory_lines(block):
    return [json.loads(line) for line in block.splitlines() if line.startswith("{")]


def test_the_injected_block_and_the_recall_tool_carry_it_cut():
    scope = hashing_memory().scope(user_id="ada")
    scope.remember(NOTES)

    for block in (
        scope.context("what is my dog called?"),
        run_memory_tool(scope, "recall", {"query": "what is my dog called?"}),
    ):
        (line,) = memory_lines(block)
        kept, marker = line["text"].split("… ")
        assert len(line["text"]) <= DEFAULT_MAX_MEMORY_CHARS
        assert NOTES.startswith(kept)
        assert marker == f"[truncated, {len(NOTES) - len(kept):,} more characters]"

    assert scope.recall("what is my dog called?")[0].text == NOTES


def test_the_budget_is_the_memorys_setting():
    scope = hashing_memory(max_memory_chars=300).scope(user_id="ada")
    scope.remember(NOTES)
    (line,) = memory_lines(scope.context("dog"))
    assert 250 < len(line["text"]) <= 300 and line["text"].endswith(" more characters]")
    scope.remember("My cat is called Tom.")
    assert "My cat is called Tom." in [line["text"] for line in memory_lines(scope.context("cat"))]
