"""A conversation file of only blank lines is "empty", and malformed JSON is named by line and
column with the parser's whole reason (not "Invalid control character at")."""

import pytest

from memvault.conversations import load_conversation
from memvault.errors import ImportFormatError


@pytest.mark.parametrize("name", ["chat.json", "chat.jsonl"])
@pytest.mark.parametrize("text", ["", "\n", " \n\n"])
def test_a_blank_file_is_empty(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ImportFormatError, match="the file is empty; give a conversation"):
        load_conversation(path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            '[{"role": "user", "content": "a\nb"}]',
            "at line 1, column 32: Invalid control character$",
        ),
        ('[{"role": "user",\n bad}]', "at line 2, column 2: Expecting property name enclosed in"),
    ],
)
def test_malformed_json_names_line_column_and_reason(tmp_path, text, problem):
    path = tmp_path / "chat.json"
    path.write_text(text)
    with pytest.raises(ImportFormatError, match=f"malformed JSON {problem}"):
        load_conversation(path)
