"""What every part of the contract shares: the backend factory a subclass writes, and fixtures."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings

from memvault.backends.base import Backend
from memvault.embedding import Embedder, HashingEmbedder
from memvault.store import MemoryStore
from memvault.testing.clock import FakeClock

StoreFactory = Callable[..., MemoryStore]
"""``new_store(**options) -> MemoryStore``: the type of the ``new_store`` fixture."""


class ContractBase:
    """The hooks and fixtures of :class:`~memvault.testing.BackendContract` and its parts.

    A subclass writes :meth:`make_backend`; every test builds what it needs from it: a bare
    backend (fixture ``backend``), stores on fresh backends (``new_store``, ``store``) and
    the state machine's stores. Fixtures are methods of the class, so they need no
    ``conftest.py``.

    Attributes:
        state_machine_settings: Hypothesis settings of the state machine test (examples,
            steps per example). Lower ``max_examples`` for a backend that is slow to open,
            e.g. ``settings(ContractBase.state_machine_settings, max_examples=20)``.
    """

    state_machine_settings: ClassVar[settings] = settings(
        max_examples=200,
        stateful_step_count=15,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )

    def make_backend(self) -> Backend:
        """A new, empty backend: the one method a subclass must write.

        Called once or more per test (the state machine calls it for every example); each
        call must give a backend that holds nothing, e.g. with a collection, table or folder
        of its own (see :meth:`fresh_folder`). The contract closes every backend it makes.

        Returns:
            The backend under test.
        """
        raise NotImplementedError(
            f"{type(self).__name__} must define make_backend(self) returning a new, empty "
            "backend, e.g. `def make_backend(self): return MyBackend(...)`"
        )

    def make_embedder(self) -> Embedder:
        """The embedder of every store the contract opens: a new 64-dimension hashing embedder.

        Deterministic and offline (:class:`~memvault.HashingEmbedder`); the dense tests
        compute the cosine similarities they expect from its vectors.
        """
        return HashingEmbedder(64)

    def limit_write_batches(self, backend: Backend, size: int) -> None:
        """Make ``backend`` split a write into batches of at most ``size`` records.

        Called before the contract writes 30 records at once, so that a backend that splits
        large writes shows that it stores them all. By default it sets ``max_batch`` where the
        backend has that attribute (:class:`~memvault.ChromaServerBackend`); override it for
        a backend of your own that splits writes otherwise.

        Args:
            backend: A backend from :meth:`make_backend`.
            size: Records per batch (7 in the contract).
        """
        if hasattr(backend, "max_batch"):
            backend.max_batch = size

    def fresh_folder(self) -> Path:
        """A new empty folder for a backend that keeps files, removed by pytest later.

        Returns:
            The folder (under pytest's temporary directory).
        """
        factory = getattr(self, "_contract_tmp", None)
        if factory is None:
            raise RuntimeError("fresh_folder() works only inside a test of the contract")
        return Path(factory.mktemp("backend"))

    @pytest.fixture(autouse=True)
    def _contract_setup(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        """Give :meth:`fresh_folder` pytest's temporary directories."""
        self._contract_tmp = tmp_path_factory

    @pytest.fixture
    def clock(self) -> FakeClock:
        """The test's clock, given to every store of the test (``clock.advance(seconds)``)."""
        return FakeClock()

    @pytest.fixture
    def backend(self) -> Iterator[Backend]:
        """A new backend from :meth:`make_backend`, closed after the test."""
        made = self.make_backend()
        yield made
        made.close()

    @pytest.fixture
    def new_store(self, clock: FakeClock) -> Iterator[StoreFactory]:
        """A factory of stores, each on a new backend, closed after the test.

        ``new_store(**options)`` is ``MemoryStore(backend=self.make_backend(),
        embedder=self.make_embedder(), clock=clock.time, **options)``.
        """
        opened: list[MemoryStore] = []

        def make(**options: Any) -> MemoryStore:
            options.setdefault("embedder", self.make_embedder())
            options.setdefault("clock", clock.time)
            made = MemoryStore(backend=self.make_backend(), **options)
            opened.append(made)
            return made

        yield make
        for made in opened:
            made.close()

    @pytest.fixture
    def store(self, new_store: StoreFactory) -> MemoryStore:
        """A store on a new backend, with the test's embedder and clock."""
        return new_store()
