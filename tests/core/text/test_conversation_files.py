"""Conversation files of every supported shape become turns; malformed ones fail by name."""

import json

import pytest

from memvault.conversations import load_conversation, source_id
from memvault.errors import ImportFormatError

MESSAGES = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "I live in Porto.", "timestamp": "2024-05-01T10:00:00Z"},
    {"role": "assistant", "content": [{"type": "text", "text": "Nice city!"}]},
]


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("chat.json", MESSAGES),
        ("chat.json", {"messages": MESSAGES}),
        ("chat.jsonl", "\n".join(json.dumps(m) for m in MESSAGES)),
    ],
)
def test_openai_messages(tmp_path, name, data):
    path = write(tmp_path, name, data)
    turns = load_conversation(path)
    assert [(t.key, t.speaker, t.text) for t in turns] == [
        (f"{source_id(path)}:2", "user", "I live in Porto."),
        (f"{source_id(path)}:3", "assistant", "Nice city!"),
    ]
    assert turns[0].timestamp == 1714557600.0
    assert turns[0].value() == {
        "text": "I live in Porto.",
        "speaker": "user",
        "turn_id": "2",
        "timestamp": 1714557600.0,
    }


def test_locomo_conversation(tmp_path):
    locomo = {
        "speaker_a": "Ann",
        "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo!"},
            {"speaker": "Bo", "dia_id": "D1:2", "text": "Look", "blip_caption": "a photo of a cat"},
        ],
    }
    for data in (locomo, {"conversation": locomo, "qa": []}):
        path = write(tmp_path, "conv.json", data)
        turns = load_conversation(path)
        assert [t.key for t in turns] == [f"{source_id(path)}:D1:1", f"{source_id(path)}:D1:2"]
        assert turns[1].text == "Look [shares a photo of a cat]"
        assert turns[0].session == 1 and turns[0].session_date == "1:56 pm on 8 May, 2023"
        assert turns[0].timestamp == 1683554160.0  # 2023-05-08 13:56 UTC


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "malformed JSON at line 1"),
        ({"hello": 1}, "not a conversation"),
        ([{"content": "no role"}], "message 1 must be an object with a string 'role'"),
        ([{"role": "user", "content": 5}], "message 1: 'content' must be a string or a list"),
        ([{"role": "user", "content": "x", "timestamp": "yesterday"}], "timestamp"),
        ([{"role": "system", "content": "x"}], "no turns"),
        ({"speaker_a": "A", "session_1": [{"speaker": "A"}]}, "needs 'speaker', 'dia_id'"),
    ],
)
def test_malformed_files_name_the_problem(tmp_path, data, message):
    with pytest.raises(ImportFormatError, match=message):
        load_conversation(write(tmp_path, "bad.json", data))


def test_keys_start_with_the_file_name_and_a_hash_of_its_full_path(tmp_path):
    one, other = tmp_path / "day1" / "chat.json", tmp_path / "day2" / "chat.json"
    assert source_id(one).startswith("chat-") and len(source_id(one)) == len("chat-") + 12
    assert source_id(one) != source_id(other)
    assert source_id(one) == source_id(tmp_path / "day2" / ".." / "day1" / "chat.json")


def test_missing_file(tmp_path):
    with pytest.raises(ImportFormatError, match="cannot read"):
        load_conversation(tmp_path / "nope.json")
