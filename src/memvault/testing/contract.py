"""The whole backend contract in one class to subclass."""

from __future__ import annotations

from memvault.testing.backend_tests import BackendTests
from memvault.testing.state_machine import StateMachineTests
from memvault.testing.store_tests import StoreTests


class BackendContract(BackendTests, StoreTests, StateMachineTests):
    """Every test a memvault backend passes: subclass it and write ``make_backend``.

    The contract is three parts, each a class of its own to subclass alone if you like:

    - :class:`~memvault.testing.backend_tests.BackendTests`: every method of the
      :class:`~memvault.backends.base.Backend` protocol called directly (lexical tests skip
      unless ``"lexical"`` is in the backend's ``search_modes``);
    - :class:`~memvault.testing.store_tests.StoreTests`: the store's behaviour on the
      backend, through ``MemoryStore(backend=..., embedder=..., clock=...)``;
    - :class:`~memvault.testing.state_machine.StateMachineTests`: a hypothesis state machine
      against a dict model.

    Each test makes its backends with :meth:`make_backend`, stores with a
    :class:`~memvault.HashingEmbedder` of 64 dimensions and a
    :class:`~memvault.testing.FakeClock`; filters are checked with an oracle of their own
    (:mod:`memvault.testing.oracle`). Needs ``pytest`` and ``hypothesis``
    (``pip install 'memvault[testing]'``).

    Example:
        In a test module of your package (the class name starts with ``Test``)::

            from memvault.testing import BackendContract

            class TestMyBackend(BackendContract):
                def make_backend(self):
                    return MyBackend(table=f"test_{uuid.uuid4().hex}")
    """
