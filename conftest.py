"""Pytest setup for every test folder: outside data as fixtures, and notebooks marked slow.

Tests marked ``slow`` (subprocess CLI runs, benchmarks, notebooks, LoCoMo) are left out of the
default run by ``addopts`` in ``pyproject.toml``; ``pytest -m "slow or not slow"`` (as
``.ci/run`` does) runs everything.
"""

from pathlib import Path

import pytest

from tests import external


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the notebooks (collected by nbmake) slow: each starts a Jupyter kernel."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


NOTEBOOKS_ON_LOCOMO = {"locomo_recall.ipynb"}
"""Notebooks that read the LoCoMo conversations (``$MEMVAULT_LOCOMO_DIR``, as the tests do)."""


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip a notebook that reads LoCoMo when the data is absent (fail it under ``CI=true``)."""
    if item.path.name in NOTEBOOKS_ON_LOCOMO:
        external.locomo_dir()


@pytest.fixture(scope="session")
def locomo_dir() -> Path:
    """The LoCoMo conversations folder (see :mod:`tests.external`); skips when absent."""
    return external.locomo_dir()


from tests.postgres import postgres_dsn  # noqa: E402, F401 - the session's PostgreSQL server
