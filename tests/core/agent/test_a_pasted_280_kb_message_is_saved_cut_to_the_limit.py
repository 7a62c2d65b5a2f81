"""A user who pastes a 280 KB message never fails the turn: its statements are stored as one
memory cut to ``MAX_TEXT_CHARS`` with a marker, and the message takes at most
``CONTEXT_TURN_CHARS`` in its own context and its neighbours'. (Issue 29: it became one
280 KB memory, whose context held it a second time.)"""

from memvault.conversations import CONTEXT_TURN_CHARS
from memvault.items import MAX_TEXT_CHARS
from tests.core.memory_fixtures import hashing_memory

PASTED = "We hiked for hours and I took photos of the lake. " * 5600  # 280,000 characters
MARKER = " more characters]"


def turn(text, reply="Noted."):
    return [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]


def test_the_memory_and_its_context_are_cut():
    scope = hashing_memory().scope(user_id="ada", session_id="t1")
    (item,) = scope.save_turns(turn(PASTED))

    assert len(item.text) <= MAX_TEXT_CHARS and item.text.endswith(MARKER)
    assert PASTED.startswith(item.text.split("… [truncated, ")[0])
    assert len(item.value["context"]) <= 2 * CONTEXT_TURN_CHARS + 100


async def test_the_next_turns_context_carries_it_cut():
    scope = hashing_memory().scope(user_id="ada", session_id="t1")
    await scope.asave_turns(turn(PASTED, reply="That is a lot of hiking."))
    (dog,) = await scope.asave_turns(turn("My dog is called Rex."))

    context = dog.value["context"]
    assert "user: We hiked for hours" in context and MARKER in context
    assert len(context) <= 4 * CONTEXT_TURN_CHARS
