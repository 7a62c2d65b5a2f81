"""The in-memory backend (a SQLite record file in memory, every search exact) passes the
backend contract."""

from memvault import InMemoryBackend
from memvault.testing import BackendContract


class TestInMemoryBackend(BackendContract):
    def make_backend(self):
        return InMemoryBackend()
