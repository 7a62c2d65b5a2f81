"""A message that is really bad is refused with what is wrong with it, by number."""

import json

import pytest

from memvault.conversations import load_conversation
from memvault.errors import ImportFormatError


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"role": "user"}, "message 1 has no 'content'"),
        ({"role": "user", "content": None}, "'content' is null and the message has no"),
        ({"role": "user", "content": 5}, "'content' must be a string or a list of parts"),
        ({"role": "user", "content": ["hi"]}, "part 1 of 'content' must be an object"),
        ({"role": "", "content": "I own a boat."}, "message 1 has an empty 'role'"),
        ({"role": "  ", "content": "I own a boat."}, "message 1 has an empty 'role'"),
    ],
)
def test_a_bad_message_is_refused_naming_the_problem(tmp_path, message, problem):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([message]))
    with pytest.raises(ImportFormatError, match=problem):
        load_conversation(path)
