"""What some tests need from outside the repository: the LoCoMo data and the ``uv`` command.

A fresh clone may lack them; a test that needs one then skips with a one-line reason, and under
``CI=true`` fails instead, so CI cannot pass without running it.

The LoCoMo conversations are found in the folder named by ``$MEMVAULT_LOCOMO_DIR``, else in
``../shared/data/locomo`` beside the checkout.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

import pytest

LOCOMO_ENV = "MEMVAULT_LOCOMO_DIR"
LOCOMO_BESIDE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo"


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``CI`` is set to a true value (``true``, ``1`` or ``yes``, any case)."""
    return environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def unavailable(reason: str, environ: Mapping[str, str] = os.environ) -> NoReturn:
    """Skip the calling test for ``reason``; under ``CI=true`` fail it instead."""
    if in_ci(environ):
        pytest.fail(f"{reason} (required under CI=true)", pytrace=False)
    pytest.skip(reason)


def locomo_dir(environ: Mapping[str, str] = os.environ, beside: Path = LOCOMO_BESIDE) -> Path:
    """The LoCoMo folder; :func:`unavailable` when there is none.

    A folder named by ``$MEMVAULT_LOCOMO_DIR`` that does not exist always fails: the setting
    is a mistake, not a missing optional extra.
    """
    named = environ.get(LOCOMO_ENV)
    path = Path(named) if named else beside
    if path.is_dir():
        return path
    if named:
        pytest.fail(f"${LOCOMO_ENV}={named!r} is not a folder", pytrace=False)
    unavailable(f"LoCoMo data not found: set ${LOCOMO_ENV} or put it at {beside}", environ)


def uv_command(environ: Mapping[str, str] = os.environ) -> str:
    """The ``uv`` executable (``$UV``, as ``uv run`` sets it, else on PATH); else unavailable."""
    found = environ.get("UV") or shutil.which("uv")
    if not found:
        unavailable("the uv command is not installed (pip install uv)", environ)
    return found
