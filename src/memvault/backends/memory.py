"""An in-process backend for tests and ephemeral use: nothing is written to disk."""

from __future__ import annotations

from memvault.backends.local import LocalBackend


class InMemoryBackend(LocalBackend):
    """A record file in memory with no vector index: every search is exact (brute force).

    The same record file as the default backend's (SQLite, in memory here), so every search
    mode and rule is the same; dense search costs grow linearly with the records in scope,
    which is fine up to some ten thousand items. Thread-safe.
    """

    def __init__(self) -> None:
        super().__init__(None, None)
