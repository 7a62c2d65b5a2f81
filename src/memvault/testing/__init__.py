"""The backend contract as a package: what a memvault backend must do, to subclass in pytest.

As ``langchain-tests`` does for LangChain integrations, this module ships the tests that every
built-in backend passes, so that a backend of your own (pgvector, Qdrant, ...) proves the same::

    from memvault.testing import BackendContract

    class TestMyBackend(BackendContract):
        def make_backend(self):
            return MyBackend(...)  # a new, empty backend each call

Running pytest on that module runs every test of :class:`BackendContract`. Its parts:

- :mod:`memvault.testing.contract`: :class:`BackendContract`, all of the below;
- :mod:`memvault.testing.backend_tests`: :class:`BackendTests`, each protocol method directly;
- :mod:`memvault.testing.store_tests`: :class:`StoreTests`, the store on the backend;
- :mod:`memvault.testing.state_machine`: :class:`StoreStateMachine` and
  :class:`StateMachineTests`;
- :mod:`memvault.testing.base`: :class:`ContractBase`, the hooks and fixtures they share;
- :mod:`memvault.testing.oracle`: the expected results, computed independently of memvault's
  own filter code;
- :mod:`memvault.testing.clock`: :class:`FakeClock`, for ``MemoryStore(clock=...)``.

Needs pytest and hypothesis: ``pip install 'memvault[testing]'``. Importing :mod:`memvault`
never imports this module.
"""

try:
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"memvault.testing needs pytest and hypothesis ({error.name} is missing); install the "
        "extra: pip install 'memvault[testing]'",
        name=error.name,
    ) from error

from memvault.testing.backend_tests import BackendTests
from memvault.testing.base import ContractBase
from memvault.testing.clock import FakeClock
from memvault.testing.contract import BackendContract
from memvault.testing.oracle import (
    filter_matches,
    holds_during,
    in_scope,
    is_live,
    shares_query_word,
)
from memvault.testing.state_machine import StateMachineTests, StoreStateMachine
from memvault.testing.store_tests import StoreTests

__all__ = [
    "BackendContract",
    "BackendTests",
    "ContractBase",
    "FakeClock",
    "StateMachineTests",
    "StoreStateMachine",
    "StoreTests",
    "filter_matches",
    "holds_during",
    "in_scope",
    "is_live",
    "shares_query_word",
]
