"""Reading LlamaIndex chat messages: their text, the latest user turn, OpenAI-style dicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock


def message_text(message: ChatMessage) -> str:
    """Return the text of a message: its text content blocks joined by newlines, stripped.

    Images, audio, documents and tool-call blocks carry no text and are skipped, so a message
    made of content blocks reads the same as one built from a plain string.

    Args:
        message: A LlamaIndex ``ChatMessage``.

    Returns:
        The text, ``""`` when the message has no text block.

    """
    parts = [block.text for block in message.blocks if isinstance(block, TextBlock)]
    return "\n".join(part for part in parts if part).strip()


def latest_user_text(messages: Sequence[ChatMessage] | None) -> str:
    """Return the text of the latest user message that has any text.

    Args:
        messages: Chat messages, oldest first (``None`` or empty allowed).

    Returns:
        That text, or ``""`` when no user message holds text.

    """
    for message in reversed(messages or []):
        if message.role == MessageRole.USER:
            text = message_text(message)
            if text:
                return text
    return ""


def to_openai_messages(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """Convert messages to OpenAI-style dicts (``{"role": str, "content": str}``).

    This is the form :meth:`memvault.MemoryScope.save_turns` reads; messages without text are
    dropped.

    Args:
        messages: LlamaIndex chat messages.

    Returns:
        One dict per message with text, in order.

    """
    converted = []
    for message in messages:
        text = message_text(message)
        if text:
            converted.append({"role": MessageRole(message.role).value, "content": text})
    return converted
