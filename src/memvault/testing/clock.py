"""A clock that moves only when a test says so, for ``MemoryStore(clock=...)``."""

from __future__ import annotations

import math

DEFAULT_START = 1_700_000_000.0
"""Where a :class:`FakeClock` starts: 2023-11-14 22:13:20 UTC, in Unix seconds."""


class FakeClock:
    """A stopped clock: TTL and recency tests advance it instead of sleeping.

    Pass its :meth:`time` method to the store; every read of the store's time then gives
    :attr:`now`, which changes only through :meth:`advance` (or by assignment).

    Args:
        start: Unix seconds to start at.

    Attributes:
        now: The current time, Unix seconds (UTC).

    Example:
        >>> from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
        >>> clock = FakeClock()
        >>> store = MemoryStore(
        ...     backend=InMemoryBackend(), embedder=HashingEmbedder(64), clock=clock.time
        ... )
        >>> _ = store.put(("users", "alice"), "mood", {"text": "tired"}, ttl=60)
        >>> clock.advance(61)
        >>> store.get(("users", "alice"), "mood") is None
        True
    """

    def __init__(self, start: float = DEFAULT_START) -> None:
        self.now = _finite(start, "start")

    def time(self) -> float:
        """The current time, Unix seconds; what :func:`time.time` gives a real store."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on.

        Args:
            seconds: How far, in seconds (finite; negative moves it back).

        Raises:
            ValueError: If ``seconds`` is not a finite number.
        """
        self.now += _finite(seconds, "seconds")

    def __repr__(self) -> str:
        return f"FakeClock(now={self.now!r})"


def _finite(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"FakeClock: {name} must be a finite number of seconds, got {value!r}")
    return float(value)
