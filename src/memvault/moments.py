"""Times as people write them: an ISO 8601 date or date-time read, a memory's validity said.

Two directions, one rule each:

- :func:`read_moment` reads the time a person or a model writes, ``"2023-04-15"`` or
  ``"2023-04-15T10:30:00Z"``, into Unix seconds: the ``as_of`` argument of the ``recall`` tool
  (:mod:`memvault.memory_tools`) and ``memvault search --as-of``. A date alone is the end of
  that day (UTC), so "as of 2023-06-02" includes what was said that day.
- :func:`validity_text` says when a memory holds (:attr:`~memvault.MemoryItem.valid_from`,
  :attr:`~memvault.MemoryItem.valid_to`) in days, UTC: ``"since 2023-06-02"`` while it holds,
  ``"2023-03-01 – 2023-06-02"`` once it was closed (superseded or ended), as the command
  line's listings say it; the block a model reads (:func:`memvault.format_memories`) gives
  the same days (:func:`day_text`) as its ``"since"`` and ``"until"`` fields;
  :func:`moment_text` gives a time to the second (``memvault history``, ``memvault ui``).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timezone
from typing import Any

from memvault.errors import InvalidArgumentError, shown
from memvault.items import validate_moment

__all__ = ["read_moment", "validity_text", "day_text", "moment_text"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_UTC_SUFFIX = re.compile(r"[Zz]$")
EXAMPLES = "'2023-04-15' or '2023-04-15T10:30:00Z'"
"""What :func:`read_moment` takes, as its error messages show it."""


def read_moment(text: Any, field: str) -> float:
    """An ISO 8601 date or date-time, as Unix seconds.

    A date alone (``"2023-04-15"``) is the end of that day, UTC (``23:59:59.999999``): what
    held by then. A date-time (``"2023-04-15T10:30"``, ``"2023-04-15 10:30:00+02:00"``,
    ``"2023-04-15T10:30:00Z"``) without a time zone is UTC, as stored times are.

    Args:
        text: The time as written.
        field: Its name in the message, e.g. ``"as_of"``.

    Returns:
        Unix seconds (UTC).

    Raises:
        InvalidArgumentError: If it is not a str in one of those forms, or is before 1970 or
            after the year 9999 (the message names ``field`` and gives an example).
    """
    written = text.strip() if isinstance(text, str) else None
    moment: datetime | None = None
    if written and _DATE.fullmatch(written):
        try:
            moment = datetime.combine(date.fromisoformat(written), time.max, timezone.utc)
        except ValueError:
            moment = None
    elif written:
        try:  # Python 3.10 reads no "Z"; every version reads "+00:00"
            moment = datetime.fromisoformat(_UTC_SUFFIX.sub("+00:00", written))
        except ValueError:
            moment = None
    if moment is None:
        raise InvalidArgumentError(
            f"{field} must be an ISO 8601 date or date-time such as {EXAMPLES}, got {shown(text)}"
        )
    try:
        return validate_moment(moment, field)
    except InvalidArgumentError:
        raise InvalidArgumentError(
            f"{field} must be a time from 1970 to the year 9999 such as {EXAMPLES}, got "
            f"{shown(text)}"
        ) from None


def day_text(seconds: float) -> str:
    """Unix seconds as the day they fall on, UTC: ``"2023-06-02"``."""
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d")


def moment_text(seconds: float) -> str:
    """Unix seconds as ISO 8601 UTC, to the second: ``"2026-11-03T09:15:02Z"``.

    How ``memvault history`` and the inspector (``memvault ui``) show a time.
    """
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def validity_text(valid_from: float, valid_to: float | None) -> str:
    """When a memory holds, in days (UTC): ``"since 2023-06-02"`` or ``"2023-03-01 – 2023-06-02"``.

    Args:
        valid_from: When it began to hold, Unix seconds.
        valid_to: When it stopped (Unix seconds), or ``None`` while it still holds.

    Returns:
        ``"since <day>"`` while it holds; ``"<first day> – <last day>"`` (an en dash between
        spaces) once it was closed.
    """
    if valid_to is None:
        return f"since {day_text(valid_from)}"
    return f"{day_text(valid_from)} – {day_text(valid_to)}"
