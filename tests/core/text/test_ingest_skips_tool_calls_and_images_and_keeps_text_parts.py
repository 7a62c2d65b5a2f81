"""An OpenAI transcript's tool calls and image-only messages are skipped, not refused."""

import json

from memvault.conversations import load_conversation

TRANSCRIPT = [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": "I live in Paris."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather"}}],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x"}}]},
    {
        "role": "user",
        "content": [
            {"type": "image_url", "image_url": {"url": "http://x"}},
            {"type": "text", "text": "This is my boat."},
        ],
    },
    {"role": "assistant", "content": "It is sunny."},
]


def test_tool_calls_and_images_are_skipped_and_text_parts_kept(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(TRANSCRIPT))
    turns = load_conversation(path)
    assert [(t.turn_id, t.origin, t.text) for t in turns] == [
        ("2", "user", "I live in Paris."),
        ("6", "user", "This is my boat."),
        ("7", "assistant", "It is sunny."),
    ]
