"""A statement saved from a turn holds from when the turn was said (its ``timestamp``), not
when it was written; saying it again keeps it holding from the first time; and writing its
context later (the next turn completes it) changes nothing of when it holds. Without a model
two statements of a move are both kept, each dated in the block."""

import json
from datetime import datetime, timezone

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore

MARCH = datetime(2023, 3, 1, 12, tzinfo=timezone.utc).timestamp()
APRIL = datetime(2023, 4, 1, 12, tzinfo=timezone.utc).timestamp()
JUNE = datetime(2023, 6, 2, 12, tzinfo=timezone.utc).timestamp()


def scope():
    store = MemoryStore(embedder=HashingEmbedder(dim=256), backend=InMemoryBackend())
    return AgentMemory(store).scope(user_id="alice", session_id="s1")


def test_a_statement_holds_from_its_turn_and_a_repeat_keeps_the_first_time():
    alice = scope()
    (first,) = alice.save_turns([{"role": "user", "content": "I live in Lisbon."}], timestamp=APRIL)
    (again,) = alice.save_turns([{"role": "user", "content": "I live in Lisbon!"}], timestamp=JUNE)
    (earlier,) = alice.save_turns(
        [{"role": "user", "content": "I live in Lisbon"}], timestamp=MARCH
    )

    assert first.valid_from == APRIL
    assert (again.key, again.valid_from, again.value["mentions"]) == (first.key, APRIL, 2)
    assert (earlier.key, earlier.valid_from) == (first.key, MARCH)


def test_completing_a_context_keeps_when_the_memory_holds():
    alice = scope()
    (said,) = alice.save_turns([{"role": "user", "content": "I live in Lisbon."}], timestamp=MARCH)
    alice.save_turns([{"role": "assistant", "content": "Lovely city!"}], timestamp=JUNE)

    completed = alice.store.get(alice.namespace, said.key)
    assert "Lovely city!" in completed.value["context"]
    assert (completed.valid_from, completed.valid_to) == (MARCH, None)


def test_without_a_model_both_statements_of_a_move_are_kept_and_dated():
    alice = scope()
    alice.save_turns([{"role": "user", "content": "I live in Lisbon."}], timestamp=MARCH)
    alice.save_turns([{"role": "user", "content": "I moved to Porto."}], timestamp=JUNE)

    block = alice.context("Where do I live, Lisbon or Porto?")
    lines = sorted(json.loads(line)["since"] for line in block.splitlines()[2:-1])
    assert lines == ["2023-03-01", "2023-06-02"]
