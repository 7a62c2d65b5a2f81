"""The agent layer's argument checks: each raises an error naming the argument and its fix.

:class:`~memvault.AgentMemory`'s options, the texts and lists of texts the scope's methods
take, a turn's messages and its time, and the value fields a caller may add to a memory.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from memvault.arguments import check_texts
from memvault.conversations import content_text, format_session_date
from memvault.errors import InvalidArgumentError, shown
from memvault.extraction import Extractor
from memvault.namespace import is_utf8
from memvault.reconcile import Reconciler
from memvault.statements import normalize_text
from memvault.store import MemoryStore

Kind = Literal["fact", "turn"]
"""What a memory is: a durable ``"fact"`` or a ``"turn"``, a statement as the user said it."""

RESERVED_FIELDS = frozenset(
    {
        "text",
        "kind",
        "mentions",
        "sessions",
        "session_id",
        "sources",
        "role",
        "supersedes",
        "superseded_by",
        "quarantined",
        "released",
    }
)
"""Value fields the layer (or :meth:`~memvault.MemoryStore.supersede`) writes itself;
``metadata`` may not set them."""


def check_options(
    *,
    store: Any,
    similarity_threshold: Any,
    extractor: Any,
    reconciler: Any,
    name: Any,
    header: Any,
    background: Any,
    inject_quarantined: Any = False,
) -> None:
    """Check the options of :class:`~memvault.AgentMemory` that no core module checks.

    Args:
        store: Must be a :class:`~memvault.MemoryStore`.
        similarity_threshold: A cosine similarity from -1 to 1, or ``None``.
        extractor: An :class:`~memvault.extraction.Extractor`, or ``None``.
        reconciler: A :class:`~memvault.Reconciler`, or ``None``.
        name: An identifier, e.g. ``"user"``.
        header: A UTF-8 str.
        background: ``True`` or ``False``.
        inject_quarantined: ``True`` or ``False``.

    Raises:
        InvalidArgumentError: Naming the first option that is not what it must be.
    """
    if not isinstance(store, MemoryStore):
        raise InvalidArgumentError(
            f"store must be a memvault MemoryStore, got {type(store).__name__}"
        )
    if similarity_threshold is not None and (
        isinstance(similarity_threshold, bool)
        or not isinstance(similarity_threshold, (int, float))
        or not -1.0 <= similarity_threshold <= 1.0
    ):
        raise InvalidArgumentError(
            "similarity_threshold must be a cosine similarity from -1 to 1, or None "
            f"(merge only memories with equal keys), got {similarity_threshold!r}"
        )
    if extractor is not None and not isinstance(extractor, Extractor):
        raise InvalidArgumentError(
            "extractor must be a memvault FactExtractor (or an Extractor: extract and "
            f"aextract), got {type(extractor).__name__}"
        )
    if reconciler is not None and not isinstance(reconciler, Reconciler):
        raise InvalidArgumentError(
            f"reconciler must be a memvault Reconciler, got {type(reconciler).__name__}"
        )
    if not isinstance(name, str) or not name.isidentifier():
        raise InvalidArgumentError(
            f"name must be an identifier such as 'user' or 'organisation', got {name!r}"
        )
    if not isinstance(header, str) or not is_utf8(header):
        raise InvalidArgumentError(
            f"header must be a UTF-8 str, got {type(header).__name__} {shown(header)}"
        )
    if not isinstance(background, bool):
        raise InvalidArgumentError(
            f"background must be True or False, got {type(background).__name__} {shown(background)}"
        )
    if not isinstance(inject_quarantined, bool):
        raise InvalidArgumentError(
            "inject_quarantined must be True or False, got "
            f"{type(inject_quarantined).__name__} {shown(inject_quarantined)}"
        )


def check_text(text: Any, field: str) -> str:
    """A text with words in it, stripped.

    Args:
        text: The value given.
        field: The argument's name, for the error.

    Returns:
        ``text.strip()``.

    Raises:
        InvalidArgumentError: If it is not a UTF-8 str or holds no word.
    """
    if not isinstance(text, str) or not is_utf8(text) or not normalize_text(text):
        raise InvalidArgumentError(
            f"{field} must be a UTF-8 string with words in it, got {shown(text)}"
        )
    return text.strip()


def check_value_fields(
    metadata: Any, kind: Any, sources: Any
) -> tuple[dict[str, Any], Kind, list[str]]:
    """The fields a caller gives a memory besides its text, checked.

    Args:
        metadata: ``None`` or a dict of more value fields, none of :data:`RESERVED_FIELDS`.
        kind: ``"fact"`` or ``"turn"``.
        sources: An iterable of the keys the memory was derived from.

    Returns:
        The metadata as a new dict, the kind, the sources as a list.

    Raises:
        InvalidArgumentError: On a bad kind, metadata that is not a dict or sets reserved
            fields, or sources that are not a list of UTF-8 strings.
    """
    if kind not in ("fact", "turn"):
        raise InvalidArgumentError(f"kind must be 'fact' or 'turn', got {shown(kind)}")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidArgumentError(
            "metadata must be a dict of value fields such as {'topic': 'health'}, got "
            f"{type(metadata).__name__} {shown(metadata)}"
        )
    checked_sources = check_texts(sources, "sources", "['mem-3f2a...']")
    extra = dict(metadata or {})
    reserved = sorted(RESERVED_FIELDS & extra.keys())
    if reserved:
        raise InvalidArgumentError(
            f"metadata may not set {', '.join(reserved)}: memvault writes these fields "
            "itself; rename yours"
        )
    return extra, kind, checked_sources


ROLES = {"human": "user", "ai": "assistant"}
"""Roles read as OpenAI's: LangChain's message types ``human`` and ``ai``."""


def checked_chat(messages: Any) -> list[dict[str, str]]:
    """The messages of a turn with text, as ``{"role", "content"}`` dicts, checked.

    A content may be a string or OpenAI's list of parts (its text parts are read,
    :func:`memvault.conversations.content_text`); a role is read case-blind, LangChain's
    ``"human"`` and ``"ai"`` as ``"user"`` and ``"assistant"`` (:data:`ROLES`). A message's
    string ``"name"`` (its speaker, as OpenAI's messages name one) is kept too; messages
    without text (``None`` content, as an assistant's tool call has; blank; not UTF-8) are
    left out.

    Args:
        messages: A sequence of mappings, oldest first.

    Returns:
        ``[{"role": str, "content": str, "name": str (where given)}]``.

    Raises:
        InvalidArgumentError: If ``messages`` is not a sequence of mappings, or a message has
            no string role or a content of another kind (names the message).
    """
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise InvalidArgumentError(
            'messages must be a list of {"role": ..., "content": ...} dicts, got '
            f"{type(messages).__name__}"
        )
    chat: list[dict[str, str]] = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise InvalidArgumentError(
                'each message must be a {"role": ..., "content": ...} dict, got '
                f"{type(message).__name__}"
            )
        role = message.get("role")
        if not isinstance(role, str) or not role.strip():
            raise InvalidArgumentError(
                f'messages[{index}]["role"] must be a string such as "user" or "assistant", '
                f"got {shown(role)}"
            )
        raw = message.get("content")
        content = content_text(raw)
        if content is None and raw is not None and not isinstance(raw, list):
            raise InvalidArgumentError(
                f'messages[{index}]["content"] must be a string or a list of '
                f'{{"type": "text", "text": ...}} parts, got {type(raw).__name__} {shown(raw)}'
            )
        if isinstance(content, str) and is_utf8(content) and content.strip():
            role = ROLES.get(role.strip().lower(), role.strip().lower())
            kept = {"role": role, "content": content}
            name = message.get("name")
            if isinstance(name, str) and is_utf8(name) and name.strip():
                kept["name"] = name.strip()
            chat.append(kept)
    return chat


def turn_time(timestamp: Any, clock: Callable[[], float]) -> float:
    """When a turn was said: ``timestamp`` checked, else now by the store's ``clock``.

    Args:
        timestamp: Unix seconds (UTC), or ``None``.
        clock: The store's clock, Unix seconds.

    Returns:
        Unix seconds.

    Raises:
        InvalidArgumentError: If ``timestamp`` is not Unix seconds that can be written as a date
            (:func:`~memvault.conversations.format_session_date`).
    """
    if timestamp is None:
        return clock()
    format_session_date(timestamp, field="timestamp")
    return float(timestamp)
