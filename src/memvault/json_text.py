"""Reading the JSON text a person gives memvault.

A conversation file, a ``--filter``, an ``mcp --config`` file.
Python's parser raises :class:`RecursionError` on JSON nested deeper than its recursion limit
(about a thousand levels); :func:`parse_json` raises a :class:`ValueError` saying
:data:`TOO_DEEP` instead, so that every caller says it the same way.
"""

from __future__ import annotations

import json
from typing import Any

TOO_DEEP = "JSON nested too deeply"
"""How an error says that JSON nests deeper than Python's parser reads."""


def parse_json(text: str) -> Any:
    """:func:`json.loads`, with nesting too deep for Python's parser as a :class:`ValueError`.

    Args:
        text: JSON text.

    Returns:
        The value.

    Raises:
        json.JSONDecodeError: If ``text`` is not JSON (its ``msg`` and ``lineno`` say where).
        ValueError: If it nests deeper than Python's parser reads (the message starts with
            :data:`TOO_DEEP`), or holds an int of more than 4,300 digits.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{TOO_DEEP} for Python's parser") from None
