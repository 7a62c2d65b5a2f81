"""`save_turns` reads a message as the rest of memvault does, and refuses what it cannot read
(found by a newcomer: OpenAI-style content parts, a role "User" or "human", a content of 5 and a
message without a role all stored nothing and raised nothing, where the README says bad input
raises in the caller and `memvault ingest` reads content parts)."""

import pytest

from memvault import InvalidArgumentError
from tests.core.memory_fixtures import hashing_memory


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": [{"type": "text", "text": "I love hiking in the Alps."}]},
        {"role": "User", "content": "I love hiking in the Alps."},
        {"role": "human", "content": "I love hiking in the Alps."},
    ],
    ids=["content parts", "capitalised role", "LangChain's human"],
)
def test_a_readable_message_is_stored(message):
    saved = hashing_memory().scope(user_id="ada").save_turns([message])
    assert [item.text for item in saved] == ["I love hiking in the Alps."]


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ({"role": "user", "content": 5}, r'messages\[0\]\["content"\] must be a string'),
        ({"content": "I love tea."}, r'messages\[0\]\["role"\] must be a string'),
        ({"role": 3, "content": "I love tea."}, r'messages\[0\]\["role"\]'),
    ],
)
def test_an_unreadable_message_is_named(message, named):
    memory = hashing_memory()
    with pytest.raises(InvalidArgumentError, match=named):
        memory.scope(user_id="ada").save_turns([message])
    assert memory.store.search(("users", "ada")) == []


def test_a_tool_call_without_content_is_left_out():
    scope = hashing_memory().scope(user_id="ada")
    assert scope.save_turns([{"role": "assistant", "content": None}]) == []
