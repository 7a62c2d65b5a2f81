"""A memory saved from the last message of a turn gets the message after it when the session's
next turn is saved: one more write of that memory (in the caller, in the background, or from
async code alike), and none when the memory changed meanwhile."""

import asyncio

import pytest

from memvault import memory_key
from tests.core.memory_fixtures import hashing_memory

ALICE = ("users", "alice")
MAY_8 = 1683554160.0  # 1:56 pm on 8 May, 2023 (UTC)
PIXEL = "I adopted a cat called Pixel."


def user(text):
    return {"role": "user", "content": text}


def save(memory, how, thread, messages, timestamp):
    scope = memory.scope(user_id="alice", thread_id=thread)
    if how == "async":
        asyncio.run(scope.asave_turns(messages, timestamp=timestamp))
    else:
        scope.save_turns(messages, timestamp=timestamp)
    memory.flush()


@pytest.mark.parametrize("how", ["in the caller", "background", "async"])
def test_the_next_turn_completes_the_context_in_one_write(how):
    memory = hashing_memory(background=how == "background")
    save(memory, how, "t1", [user(PIXEL)], MAY_8)
    first = memory.store.get(ALICE, memory_key(PIXEL))
    assert first.value["context"] == f"1:56 pm on 8 May, 2023\nuser: {PIXEL}"

    save(memory, how, "t1", [user("Which food suits a kitten?")], MAY_8 + 60)
    save(memory, how, "t1", [user("She is three months old.")], MAY_8 + 120)

    completed = memory.store.get(ALICE, memory_key(PIXEL))
    assert completed.value["context"] == (
        f"1:56 pm on 8 May, 2023\nuser: {PIXEL}\nuser: Which food suits a kitten?"
    )
    assert [e.event for e in memory.store.history(ALICE, memory_key(PIXEL))] == ["add", "update"]
    assert completed.value["mentions"] == 1  # completing is no new mention
    (last,) = [i for i in memory.scope(user_id="alice").list() if i.text != PIXEL]
    assert last.value["context"] == (
        f"1:58 pm on 8 May, 2023\nuser: {PIXEL}\nuser: Which food suits a kitten?\n"
        "user: She is three months old."
    )


def test_a_memory_said_again_elsewhere_meanwhile_keeps_its_newer_context():
    memory = hashing_memory()
    save(memory, "in the caller", "t1", [user(PIXEL)], MAY_8)
    other = [user(PIXEL), {"role": "assistant", "content": "Congratulations!"}]
    save(memory, "in the caller", "t2", other, MAY_8 + 60)  # merged: t2's context
    save(memory, "in the caller", "t1", [user("She is three months old.")], MAY_8 + 120)

    item = memory.store.get(ALICE, memory_key(PIXEL))
    assert item.value["context"] == (
        f"1:57 pm on 8 May, 2023\nuser: {PIXEL}\nassistant: Congratulations!"
    )
    assert item.value["mentions"] == 2
