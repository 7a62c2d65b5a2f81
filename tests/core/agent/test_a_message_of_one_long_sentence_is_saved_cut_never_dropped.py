"""A message of one sentence longer than MAX_STATEMENT_CHARS (a pasted document, a list) is
saved cut to that length with a marker saying how much was left out, never dropped."""

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.statements import MAX_STATEMENT_CHARS


@pytest.mark.parametrize(
    ("message", "start", "cut"),
    [
        ("I like " + "pie " * 20000, "I like pie pie", 79_044),
        (
            "I like " + ", ".join(f"food{i}" for i in range(6000)) + ".",
            "I like food0, food1",
            57_938,
        ),
    ],
    ids=["one word repeated", "a long list"],
)
def test_a_long_sentence_is_saved_cut(message, start, cut):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder())
    alice = AgentMemory(store, ("users", "{user_id}")).scope(user_id="alice")
    [saved] = alice.save_turns([{"role": "user", "content": message}])
    assert saved.text.startswith(start)
    assert saved.text.endswith(f"… [truncated, {cut:,} more characters]")
    assert len(saved.text) <= MAX_STATEMENT_CHARS
