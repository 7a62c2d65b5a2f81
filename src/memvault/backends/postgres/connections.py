"""A Postgres store's connections: the pool, its checks and retries, and psycopg's errors.

:class:`Connections` hands out the pool's connections, set up at their first use (pgvector's
binary format, the HNSW scan's settings); a write's connection is checked before its
transaction (:meth:`Connections.transaction`), a read is sent once more where the server had
dropped its connection (:meth:`Connections.fetch`). Every error of psycopg leaves as
memvault's (:func:`translated`). :func:`check_dsn` is the connection string's check, which the
CLI runs before it connects.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from memvault.errors import (
    BackendError,
    BackendUnavailableError,
    InvalidArgumentError,
    MemvaultError,
    StoreBusyError,
    StoreClosedError,
    StoreDamagedError,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["SESSION_SETTINGS", "Connections", "address_of", "check_dsn", "open_pool", "translated"]

SESSION_SETTINGS = (
    "SET hnsw.iterative_scan = relaxed_order",
    "SET hnsw.ef_search = 100",
    "SET plan_cache_mode = force_generic_plan",
)
"""How each connection serves the store, set once per connection (a pool passed in too).

- pgvector's HNSW scan runs iteratively (pgvector 0.8: it goes on past its candidate list of
  100 until enough records pass the search's namespace, liveness and filter conditions), in
  its relaxed order (the statements sort).
- A statement psycopg has prepared (from its fifth run on a connection) keeps one generic
  plan (PostgreSQL's ``plan_cache_mode``) instead of being planned again for each run's
  values, whose planning costs about as much as a small scope's search (figures in
  ``bench/README.md``). The search statements choose between their exact and their index
  branches by one-time filters on the scope's count, at run time, so one plan serves every
  scope."""


def check_dsn(dsn: str) -> str:
    """``dsn`` if it has the form of a PostgreSQL connection string (nothing is connected to).

    Args:
        dsn: A URI such as ``postgresql://user@host:5432/database``, or ``key=value`` pairs
            such as ``host=... dbname=...`` (libpq's two forms).

    Raises:
        InvalidArgumentError: Naming both forms, for anything else.
        ImportError: Without psycopg (``pip install 'memvault[postgres]'``).
    """
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    try:
        conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as error:
        raise InvalidArgumentError(
            f"dsn is not a PostgreSQL connection string ({error}): give a URI such as "
            "postgresql://user@host:5432/database, or 'host=... dbname=...'"
        ) from error
    return dsn


def address_of(conninfo: str) -> str:
    """Where a connection string points, for messages (never the password).

    Args:
        conninfo: A libpq connection string or URI; ``""`` for libpq's defaults.
    """
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(conninfo)
    except Exception:  # noqa: BLE001 - a malformed string is reported when connecting
        return "the server of the connection string given"
    host = str(parts.get("host") or "")
    port = parts.get("port") or "5432"
    database = parts.get("dbname")
    where = (
        f"the Unix socket in {host} (port {port})"
        if not host or host.startswith("/")
        else f"{host}:{port}"
    )
    if not host:
        where = f"libpq's default socket (port {port})"
    return f"{where}{f', database {database}' if database else ''}"


@contextlib.contextmanager
def translated(*, address: str, schema: str, timeout: float) -> Iterator[None]:
    """Errors of psycopg leave as memvault's, with the cause chained.

    Args:
        address: Where the server is (:func:`address_of`), for messages.
        schema: The store's schema, for messages.
        timeout: The pool's wait for a connection in seconds, for messages.

    Raises:
        BackendUnavailableError: For a pool that is not open or timed out, and for an
            unreachable server or a dropped connection (``OperationalError``).
        StoreBusyError: For a lock timeout, a deadlock, a serialization failure or a
            cancelled statement.
        StoreDamagedError: For missing tables, columns, schema or functions.
        BackendError: For any other error of psycopg.
    """
    import psycopg
    import psycopg_pool
    from psycopg import errors

    try:
        yield
    except MemvaultError:
        raise
    except psycopg_pool.PoolClosed as error:  # a pool passed in, not open (yet, or again)
        raise BackendUnavailableError(
            f"the connection pool given to PostgresBackend is not open ({error}): open it "
            "first (ConnectionPool(..., open=True) or pool.open()), or give a dsn instead"
        ) from error
    except psycopg_pool.PoolTimeout as error:
        raise BackendUnavailableError(
            f"no connection to the PostgreSQL server at {address} within "
            f"{timeout:g} s ({error}); start it, check the address, or raise "
            "max_connections"
        ) from error
    except (
        errors.LockNotAvailable,
        errors.DeadlockDetected,
        errors.SerializationFailure,
        errors.QueryCanceled,
    ) as error:
        raise StoreBusyError(
            f"the PostgreSQL server at {address} gave up waiting for another "
            f"writer ({type(error).__name__}: {error}); retry"
        ) from error
    except (
        errors.UndefinedTable,
        errors.UndefinedColumn,
        errors.InvalidSchemaName,
        errors.UndefinedFunction,
    ) as error:
        raise StoreDamagedError(
            f"the memvault tables in schema {schema!r} at {address} are missing "
            f"or changed ({error}); open the store again to create them, or restore the "
            "schema from a backup"
        ) from error
    except psycopg.OperationalError as error:
        raise BackendUnavailableError(
            f"the PostgreSQL server at {address} cannot be reached or closed the "
            f"connection ({error}); check that it runs and the connection string (host, "
            "port or socket folder, database, user)"
        ) from error
    except psycopg.Error as error:
        raise BackendError(
            f"the PostgreSQL server at {address} refused the operation: "
            f"{type(error).__name__}: {error}"
        ) from error


def open_pool(
    conninfo: str, *, address: str, schema: str, max_connections: int, timeout: float
) -> ConnectionPool:
    """A pool of autocommit connections to ``conninfo``, the server reached once first.

    A server that is down fails here at once, not after the pool's timeout.

    Args:
        conninfo: A connection string checked by :func:`check_dsn`.
        address: :func:`address_of` ``conninfo``, for messages.
        schema: The store's schema (names the pool, ``memvault-<schema>``).
        max_connections: Most connections of the pool, ``>= 1``.
        timeout: Seconds to wait for a connection.

    Raises:
        BackendUnavailableError, BackendError: From the server (:func:`translated`).
    """
    import psycopg
    import psycopg_pool

    with translated(address=address, schema=schema, timeout=timeout):
        psycopg.connect(conninfo, connect_timeout=max(1, int(timeout))).close()
        return psycopg_pool.ConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True},
            timeout=timeout,
            open=True,  # no check per checkout: see Connections.connection and fetch
            name=f"memvault-{schema}",
        )


def _connection_lost(connection: psycopg.Connection[Any], error: psycopg.Error) -> bool:
    """Whether ``error`` says the connection is gone, not that the statement was wrong.

    The server shut it (SQLSTATE class 57P: a restart, ``pg_terminate_backend``), the link broke
    (class 08), or libpq found it closed (no SQLSTATE).
    """
    state = error.sqlstate
    return connection.broken or state is None or state.startswith(("57P", "08"))


class Connections:
    """The connections of one store's pool: checked, retried, set up, errors translated.

    Args:
        pool: An open pool (:func:`open_pool`, or the user's own).
        own: Whether :meth:`close` closes ``pool`` (a pool passed in stays open).
        schema: The store's schema, for messages.
        address: Where the server is (:func:`address_of`), for messages.
        timeout: Seconds to wait for a connection before
            :class:`~memvault.errors.BackendUnavailableError`.

    Attributes:
        vector_type_exists: Set once the store's schema is open (the ``vector`` extension
            exists): from then on each connection is set up at its first use.
    """

    def __init__(
        self, pool: ConnectionPool, *, own: bool, schema: str, address: str, timeout: float
    ) -> None:
        self._pool: ConnectionPool | None = pool
        self._own = own
        self._closed = False
        self.schema = schema
        self.address = address
        self.timeout = timeout
        self.vector_type_exists = False
        self._vector_connections: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()

    def translated(self) -> contextlib.AbstractContextManager[None]:
        """Errors of psycopg inside leave as memvault's (:func:`translated`)."""
        return translated(address=self.address, schema=self.schema, timeout=self.timeout)

    def live_pool(self) -> ConnectionPool:
        """The pool.

        Raises:
            StoreClosedError: Once the store is closed.
        """
        if self._closed or self._pool is None:
            raise StoreClosedError("the store was closed; open a new MemoryStore")
        return self._pool

    @contextlib.contextmanager
    def connection(self, *, checked: bool) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, its errors translated (:meth:`translated`).

        With ``checked``, the connection is first checked by an empty statement (a round trip)
        and, where the server dropped it, replaced by another: a write must not find out in
        the middle of its transaction. Reads skip the check and are sent again instead where
        the connection was dropped (:meth:`fetch`). A connection found dropped while it is set
        up is replaced too.

        Once the schema is open (:attr:`vector_type_exists`), each connection is set up at its
        first use: it learns to send numpy vectors in pgvector's binary format, with
        pgvector's own adapter (``pgvector.psycopg``; formatting floats as text costs more
        than the query), and takes the session's settings (:data:`SESSION_SETTINGS`).

        Raises:
            StoreClosedError: Once the store is closed.
            BackendUnavailableError: Where no connection comes within the timeout, or every
                one tried was dropped.
        """
        import psycopg
        import psycopg_pool

        pool = self.live_pool()
        with self.translated():
            for attempt in range(1, pool.max_size + 2):
                connection = pool.getconn(timeout=self.timeout)
                try:
                    if checked:
                        psycopg_pool.ConnectionPool.check_connection(connection)
                    self._set_up(connection)
                    break
                except psycopg.OperationalError as error:
                    lost = _connection_lost(connection, error)
                    if lost:
                        connection.close()  # the pool discards it
                    pool.putconn(connection)
                    if not lost or attempt > pool.max_size:
                        raise
            try:
                yield connection
            finally:
                pool.putconn(connection)

    def _set_up(self, connection: psycopg.Connection[Any]) -> None:
        """At a connection's first use once the schema is open: see :meth:`connection`."""
        if self.vector_type_exists and connection not in self._vector_connections:
            from pgvector.psycopg import register_vector

            register_vector(connection)
            for setting in SESSION_SETTINGS:
                connection.execute(setting)
            if not connection.autocommit:
                connection.commit()
            self._vector_connections.add(connection)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor inside one transaction on a checked connection; committed on success.

        Rolled back on any error.
        """
        with (
            self.connection(checked=True) as connection,
            connection.transaction(),
            connection.cursor() as cursor,
        ):
            yield cursor

    def fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of one read statement: one round trip, no ``BEGIN`` and ``COMMIT``.

        The connection is not checked first (a round trip of its own); where the server had
        dropped it (a restart, an idle timeout), the statement is sent again on another
        connection, as often as the pool holds connections: a read changes nothing. One
        statement is a transaction of its own; where the pool's connections are not in
        autocommit, an explicit transaction brackets it. Statements are prepared by psycopg
        once they repeat.

        Args:
            sql: One statement, ``%s`` (or ``%b``) marking its parameters.
            params: Its parameters.

        Raises:
            StoreClosedError, BackendUnavailableError, BackendError, StoreBusyError,
            StoreDamagedError: See :func:`translated`.
        """
        import psycopg

        tries = self.live_pool().max_size + 1  # every pooled connection may have been dropped
        for attempt in range(1, tries + 1):
            with self.connection(checked=False) as connection:
                bracket = (
                    contextlib.nullcontext() if connection.autocommit else connection.transaction()
                )
                try:
                    with bracket, connection.cursor() as cursor:
                        cursor.execute(sql, params)
                        return cursor.fetchall()
                except psycopg.OperationalError as error:
                    if attempt == tries or not _connection_lost(connection, error):
                        raise
                    connection.close()  # the pool discards it
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        """Close the pool if it was made here; closing twice does nothing.

        Afterwards every method raises :class:`~memvault.errors.StoreClosedError`.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None and self._own:
            with contextlib.suppress(Exception):
                pool.close()
