"""Reading LlamaIndex chat messages: their text, the latest user turn, OpenAI-style dicts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock

from memvault import InvalidArgumentError
from memvault.errors import shown


def chat_messages(messages: Any, field: str = "messages") -> list[ChatMessage]:
    """Check that ``messages`` is a list of LlamaIndex ``ChatMessage`` s, and return it as one.

    Args:
        messages: What a caller passed as messages.
        field: Its name in the message, e.g. ``"chat_history"``.

    Returns:
        The messages as a list.

    Raises:
        InvalidArgumentError: If it is not a list (or tuple) of ``ChatMessage``, naming the
            first wrong entry.
    """
    if not isinstance(messages, (list, tuple)):
        raise InvalidArgumentError(
            f"{field} must be a list of llama_index ChatMessage, e.g. "
            f"[ChatMessage(role='user', content='...')], got {type(messages).__name__} "
            f"{shown(messages)}"
        )
    for index, message in enumerate(messages):
        chat_message(message, f"{field}[{index}]")
    return list(messages)


def chat_message(message: Any, field: str = "message") -> ChatMessage:
    """Check that ``message`` is a LlamaIndex ``ChatMessage``, and return it.

    Raises:
        InvalidArgumentError: If it is not one, naming ``field``.
    """
    if not isinstance(message, ChatMessage):
        raise InvalidArgumentError(
            f"{field} must be a llama_index ChatMessage, e.g. ChatMessage(role='user', "
            f"content='...'), got {type(message).__name__} {shown(message)}"
        )
    return message


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
