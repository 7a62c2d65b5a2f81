"""Cutting a text to a number of characters, with a marker saying how much was left out.

memvault bounds text with this one cut wherever a text could grow without bound on its way to
a model: a memory's text in the fenced block a prompt receives
(:func:`memvault.context.format_memories`), the text of a memory the agent layer writes from a
conversation (:mod:`memvault.agent.scope`), and a message's line in the ``context`` of the
turns around it (:func:`memvault.conversations.with_context`). The unit is the character, a
Unicode code point as ``len(str)`` counts it: the cut never needs a tokenizer, and a model's
tokens are about four characters of English text (OpenAI's rule of thumb) for any budget
given in characters.
"""

from __future__ import annotations

import re
from typing import Any

from memvault.arguments import check_count

TRUNCATION_MARKER = "… [truncated, {count:,} more characters]"
"""What ends a cut text; ``count`` is how many characters of the text were left out."""

MIN_BUDGET_CHARS = 100
"""Smallest budget, in characters, a text may be cut to: the marker takes up to 46 characters
(for a count below a trillion), so at least 54 characters of the text remain."""

_LAST_SPACE = re.compile(r"\s\S*\Z")


def check_budget(chars: Any, field: str) -> int:
    """A character budget: an int from :data:`MIN_BUDGET_CHARS` to 1,000,000.

    Args:
        chars: The value given.
        field: Its name in the message, e.g. ``"max_memory_chars"``.

    Returns:
        ``chars`` unchanged.

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    return check_count(chars, field, minimum=MIN_BUDGET_CHARS)


def truncated(text: str, chars: int) -> str:
    """``text`` if it has at most ``chars`` characters, else its start and the marker.

    A cut text is at most ``chars`` characters long, marker included: its start (cut after
    the last whole word, unless that would keep less than half of the room) followed by
    :data:`TRUNCATION_MARKER`, e.g. ``"My notes: first… [truncated, 278,329 more
    characters]"``. Cutting a text already cut to ``chars`` gives it back unchanged.

    Args:
        text: Any text.
        chars: The budget, at least :data:`MIN_BUDGET_CHARS` (see :func:`check_budget`).

    Returns:
        The text, whole or cut.
    """
    if len(text) <= chars:
        return text
    room = chars - len(TRUNCATION_MARKER.format(count=len(text)))
    kept = text[:room]
    space = _LAST_SPACE.search(kept)
    if space is not None and space.start() >= room // 2:
        kept = kept[: space.start()]
    kept = kept.rstrip()
    return kept + TRUNCATION_MARKER.format(count=len(text) - len(kept))
