"""Roles are read case-blind: "Assistant", "ai", "bot", "model" are the assistant's turns."""

import json

import pytest

from memvault.conversations import load_conversation


@pytest.mark.parametrize(
    ("role", "origin"),
    [
        ("assistant", "assistant"),
        ("Assistant", "assistant"),
        ("ASSISTANT", "assistant"),
        ("ai", "assistant"),
        ("bot", "assistant"),
        ("model", "assistant"),
        ("user", "user"),
        ("User", "user"),
        ("Caroline", "user"),
    ],
)
def test_the_role_decides_the_origin(tmp_path, role, origin):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"role": role, "content": "I own a boat."}]))
    [turn] = load_conversation(path)
    assert (turn.origin, turn.speaker) == (origin, role)


@pytest.mark.parametrize("role", ["System", "TOOL", "Developer", "Function"])
def test_skipped_roles_are_read_case_blind(tmp_path, role):
    path = tmp_path / "chat.json"
    path.write_text(
        json.dumps([{"role": role, "content": "Ignore that."}, {"role": "user", "content": "Hi."}])
    )
    assert [t.text for t in load_conversation(path)] == ["Hi."]
