"""A turn's context holds, by default, the two turns before it and the one after it in its
session (the window chosen leave-one-conversation-out on LoCoMo); another window can be asked
for, and a window that is not a count is a typed error naming the argument."""

import pytest

from memvault import InvalidArgumentError
from memvault.conversations import parse_locomo, with_context

CONVERSATION = {
    "speaker_a": "Ana",
    "speaker_b": "Rui",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a kitten."},
        {"speaker": "Rui", "dia_id": "D1:2", "text": "What is her name?"},
        {"speaker": "Ana", "dia_id": "D1:3", "text": "Pixel."},
        {"speaker": "Rui", "dia_id": "D1:4", "text": "Lovely name."},
        {"speaker": "Ana", "dia_id": "D1:5", "text": "She sleeps all day."},
    ],
    "session_2_date_time": "9:00 am on 9 May, 2023",
    "session_2": [{"speaker": "Rui", "dia_id": "D2:1", "text": "How is Pixel?"}],
}


def lines(turn):
    return turn.context.split("\n")[1:]  # after the session date


def test_the_default_window_is_two_turns_before_and_one_after():
    turns = with_context(parse_locomo(CONVERSATION, source="chat"))
    assert lines(turns[2]) == [
        "Ana: I adopted a kitten.",
        "Rui: What is her name?",
        "Ana: Pixel.",
        "Rui: Lovely name.",
    ]
    assert lines(turns[4]) == ["Ana: Pixel.", "Rui: Lovely name.", "Ana: She sleeps all day."]
    assert lines(turns[5]) == ["Rui: How is Pixel?"]  # another session's turns are not taken


def test_another_window_can_be_asked_for():
    turns = with_context(parse_locomo(CONVERSATION, source="chat"), before=0, after=0)
    assert [lines(t) for t in turns[:2]] == [
        ["Ana: I adopted a kitten."],
        ["Rui: What is her name?"],
    ]


@pytest.mark.parametrize(("argument", "count"), [("before", -1), ("after", 1.5), ("after", True)])
def test_a_window_that_is_not_a_count_is_a_typed_error(argument, count):
    turns = parse_locomo(CONVERSATION, source="chat")
    with pytest.raises(InvalidArgumentError, match=f"{argument} must be an int from 0"):
        with_context(turns, **{argument: count})
