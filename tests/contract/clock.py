"""A fake clock for TTL tests."""


class FakeClock:
    """Stands in for the time module inside memvault.store, so TTL tests need no sleeping."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
