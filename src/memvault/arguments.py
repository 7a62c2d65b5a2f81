"""Checks of the store's options: limits, offsets, TTLs, timestamps and search modes.

One function per option kind, each raising :class:`~memvault.errors.InvalidArgumentError`
that names the option and its allowed range.
"""

from __future__ import annotations

from typing import Any

from memvault.backends.base import SearchMode
from memvault.errors import InvalidArgumentError


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""Marks an option left out where ``None`` means something (``ttl=None``: never expire)."""

MAX_SECONDS = 1e12
"""Upper bound of TTLs and timestamps, in seconds (about 31,700 years)."""
MAX_COUNT = 1_000_000
"""Upper bound of ``limit`` and ``offset``."""

SEARCH_MODES: tuple[SearchMode, ...] = ("hybrid", "dense", "lexical")
DEFAULT_SEARCH_MODE: SearchMode = "hybrid"
"""The default of ``search(mode=...)``: hybrid won on LoCoMo (see ``bench/README.md``)."""


def check_ttl(ttl: Any, field: str = "ttl") -> float | None:
    """A TTL in seconds: a positive finite number below :data:`MAX_SECONDS`, or ``None``.

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl < MAX_SECONDS:
        raise InvalidArgumentError(
            f"{field} must be a positive, finite number of seconds below {MAX_SECONDS:.0e}, or "
            f"None (never expire), got {ttl!r:.80}"
        )
    return float(ttl)


def check_timestamp(value: Any, field: str = "timestamp") -> float:
    """Unix seconds from 0 to :data:`MAX_SECONDS`.

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (0 <= value < MAX_SECONDS)
    ):
        raise InvalidArgumentError(
            f"{field} must be Unix seconds from 0 to {MAX_SECONDS:.0e}, got {value!r:.80}"
        )
    return float(value)


def check_count(value: Any, field: str, *, minimum: int) -> int:
    """An int from ``minimum`` to :data:`MAX_COUNT` (``limit``, ``offset``, ``max_depth``).

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_COUNT:
        raise InvalidArgumentError(
            f"{field} must be an int from {minimum} to {MAX_COUNT}, got {value!r:.80}"
        )
    return value


def check_mode(mode: Any, served: tuple[SearchMode, ...] = SEARCH_MODES) -> SearchMode:
    """A search mode the backend serves.

    Raises:
        InvalidArgumentError: If ``mode`` is unknown, or not in ``served`` (the backend's
            :attr:`~memvault.backends.base.Backend.search_modes`).
    """
    if mode not in SEARCH_MODES:
        raise InvalidArgumentError(
            f"mode must be one of {', '.join(map(repr, SEARCH_MODES))}, got {mode!r:.80}"
        )
    if mode not in served:
        raise InvalidArgumentError(
            f"mode={mode!r} needs a lexical (BM25) index, which this backend (a shared Chroma "
            f"server) does not keep; use {', '.join(map(repr, served))}"
        )
    return mode
