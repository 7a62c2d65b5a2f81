"""The Postgres topology: one PostgreSQL database, the system of record of every machine.

Any number of processes on any number of machines share it; nothing is kept beside it.

One schema (``memvault`` by default) holds three tables, written together in one transaction
per write:

- ``items``: per record its id (the JSON array of namespace and key, see
  :func:`~memvault.backends.base.record_id`), ``ns`` (the namespace as
  :func:`~memvault.model.ns_key` spells it, so that a namespace prefix is a range of one
  B-tree index, collation ``"C"``), the value (``json``: kept as written, so ``1e+20`` reads
  back as a float; ``jsonb`` would rewrite it as an integer), ``created``, ``updated`` and
  ``expires`` (Unix seconds, ``double precision``), the embedding (pgvector ``vector(dim)`` at
  unit length, an HNSW index with cosine distance) and ``words`` (a ``tsvector`` with a GIN
  index); its ``ns`` index carries ``expires`` and ``length``, so a scope is counted and its
  mean length read from the index alone, and a record stays whole in its row up to 8 kB;
- ``history``: one row per change to a key (record id, time, event, source, value before and
  after), kept after the record is deleted (:mod:`memvault.history`);
- ``meta``: the schema version (:data:`SCHEMA_VERSION`), the embedding dimension and the
  store's settings (embedder name, dimension, fingerprint; checked by the store at open).

**Lexical search** ranks by Okapi BM25 as every backend does (:func:`memvault.lexical.bm25`,
here computed in SQL in one query): the records holding any query word are matched record by
record in a scope of up to ``exact_scope`` records, and found by the GIN index of ``words`` in a
larger one. The statistics are the record file's, those of the **searched scope**: how many
records are stored under the prefix and their mean length in words (expired records not yet
cleaned up included, read from the ``ns`` index alone), and how many live ones hold each
query word; the contract checks every backend's scores against one plain computation
(:func:`memvault.testing.oracle.bm25_score`). Its words are memvault's own
(:func:`~memvault.lexical.terms_of`, :func:`~memvault.lexical.query_terms`), as the record
file's, so it finds exactly the records the local backends find. Its cost follows the
records that hold a query word, plus one count of the scope (``bench/postgres.py`` measures
it; figures in ``bench/README.md``).

**Dense search** ranks a scope of at most ``exact_scope`` live records (:data:`EXACT_SCOPE`)
exactly (a sequential scan by the ``ns`` index, ties by id); a larger scope asks the HNSW
index (pgvector's iterative scan, so filters do not starve it) and is approximate, as a
local store's Chroma index is.

**Hybrid search** (:meth:`PostgresBackend.search`): one SQL statement, one round trip,
returns the dense and the BM25 ranking (the dense one counting the scope by the BM25
statistics' count) with the records of their tops; the store's one fusion
(:mod:`memvault.fusion`) orders them. A dense and a lexical search are one round trip too.

**Many writers**: every write takes a transaction-level advisory lock per key (in one sorted
order, so two writers never deadlock) before it reads the versions it replaces, so two
processes writing one key are serialised by the database; readers see every committed write.
There are no lock files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from memvault.backends.base import Backend
from memvault.backends.sql import (
    HISTORY_COLUMNS,
    RECORD_COLUMNS,
    entry_of_row,
    history_row,
    json_text,
    live_under,
    migrate,
    record_of_row,
    under,
)
from memvault.compare_and_set import check_expected
from memvault.errors import (
    BackendError,
    BackendUnavailableError,
    EmbedderMismatchError,
    InvalidArgumentError,
    MemvaultError,
    StoreBusyError,
    StoreClosedError,
    StoreDamagedError,
)
from memvault.filters import Scalar, compile_filter
from memvault.fusion import FUSION_DEPTH, hybrid_page
from memvault.history import entries_of_delete, entries_of_upsert
from memvault.lexical import (
    BM25_B,
    BM25_K1,
    MAX_WORD,
    fold,
    indexed_text,
    query_terms,
    words_of,
)
from memvault.model import (
    Change,
    Clauses,
    Found,
    HistoryEntry,
    Namespace,
    Page,
    Ranked,
    Record,
    SearchMode,
    SearchRequest,
    Vector,
    Vectors,
    namespace_of_key,
    ns_key,
    record_id,
    unit_vectors,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

SCHEMA_VERSION = 2
"""The version of the tables this module writes, kept in ``meta``. A schema at an older
version is migrated forward at open, in the opening transaction; a newer one is refused.
Version 2: the ``ns`` index carries ``expires`` and ``length``, so that a scope's count and
mean length (dense and BM25 searches) are read from the index alone; and ``items`` keeps a
record in its row up to a page (:data:`_ROW_TARGET`)."""

EXACT_SCOPE = 2_000
"""Largest scope (live records under the searched prefix) that dense search ranks exactly
and lexical search reads record by record; larger scopes ask the HNSW and the GIN index."""

LOCK_TIMEOUT = 60.0
"""Seconds a write waits for another writer of the same keys before
:class:`~memvault.errors.StoreBusyError` (Postgres's ``lock_timeout``, set per write)."""

DEFAULT_SCHEMA = "memvault"
"""The Postgres schema that holds a store's tables unless another is given."""

_INSTALL = "pip install 'memvault[postgres]'"
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_SETUP_LOCK = 0x6D656D7661756C74  # "memvault": serialises opening and the first write
_PAGE = 2_000
_MAX_POSITIONS = 256  # a tsvector keeps at most 256 positions per word
_ROW_TARGET = "toast_tuple_target = 8160"
"""Rows of ``items`` stay whole up to 8,160 bytes (the most Postgres allows) instead of 2,032:
a record of a 384-d embedding (1.5 kB), its words and a value with context is 3-4 kB, and by
default Postgres moves its embedding out of the row (TOAST, the embedding being the largest
column it may move), and an exact dense ranking then reads each embedding from the TOAST
table: several times slower than with the records whole (``bench/README.md``)."""
_SCAN_SETTINGS = ("SET hnsw.iterative_scan = relaxed_order", "SET hnsw.ef_search = 100")
"""How pgvector's HNSW scan serves a search, set once per connection: iteratively (pgvector
0.8: the scan goes on past its candidate list of 100 until enough records pass the search's
namespace, liveness and filter conditions), in its relaxed order (the statements sort)."""
_NS_INDEX = "CREATE INDEX items_by_ns ON {s}.items (ns) INCLUDE (expires, length)"
"""A scope's count and mean length come from this index alone (an index-only scan)."""


def check_schema_name(schema: object) -> str:
    """``schema`` if it can name a store's Postgres schema, unquoted.

    Args:
        schema: 1-63 lower-case ASCII letters, digits or ``_``, not starting with a digit,
            nor with ``pg_``, nor ``information_schema``. (An SQL keyword is refused by the
            server's list when the backend opens.)

    Raises:
        InvalidArgumentError: Naming the rule, for anything else.
    """
    if (
        not isinstance(schema, str)
        or not _SCHEMA_NAME.fullmatch(schema)
        or schema.startswith("pg_")
        or schema == "information_schema"
    ):
        raise InvalidArgumentError(
            f"schema must be 1-63 lower-case letters, digits or '_' (not starting with a "
            f"digit, nor 'pg_', nor information_schema), got {schema!r}"
        )
    return schema


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


def _quoted(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_of(text: str) -> tuple[str, int]:
    """The ``tsvector`` literal of a text, each folded word with its positions (from 1).

    Args:
        text: The indexed text (:func:`~memvault.lexical.indexed_text`).

    Returns:
        The literal, e.g. ``"'dog':2 'tea':1,3"`` (empty for a text without words), and the
        text's length in words (BM25's document length).
    """
    positions: dict[str, list[int]] = {}
    words = words_of(text)
    for position, word in enumerate(words, start=1):
        folded = fold(word) if len(word) <= MAX_WORD else ""
        if folded:  # a word of combining marks alone folds to nothing
            kept = positions.setdefault(folded, [])
            if len(kept) < _MAX_POSITIONS:
                kept.append(min(position, 16_383))
    literal = " ".join(
        f"{_quoted(word)}:{','.join(map(str, sorted(set(at))))}" for word, at in positions.items()
    )
    return literal, len(words)


def tsquery_of(query: str) -> str | None:
    """The ``tsquery`` literal of a natural-language query: any of its words (OR).

    The words are :func:`~memvault.lexical.query_terms`, folded as :func:`tsvector_of` folds
    a record's; query syntax is taken literally.

    Returns:
        E.g. ``"'tea' | 'dog'"``, or ``None`` if the query has no words.
    """
    words = query_terms(query)
    if not words:
        return None
    return " | ".join(_quoted(w) for w in dict.fromkeys(words))


Sql = tuple[str, list[Any]]
"""An SQL condition and its parameters."""

_SYMBOLS = {"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


class JsonSql:
    """:class:`~memvault.filters.FilterDialect` of SQL over the ``json`` column ``i.value``.

    ``json_typeof`` decides a field's kind (a missing field is ``NULL``: never a match),
    numbers compare as ``float8`` (64-bit floats), and every condition is ``TRUE`` or
    ``FALSE``, never ``NULL``, so that ``NOT`` and ``AND`` mean what they say.
    """

    def equals(self, field: str, operand: Scalar) -> Sql:
        """See :meth:`FilterDialect.equals <memvault.filters.FilterDialect.equals>`."""
        if isinstance(operand, bool):
            return (
                "coalesce(json_typeof(i.value -> %s) = 'boolean' AND i.value ->> %s = %s, FALSE)",
                [field, field, "true" if operand else "false"],
            )
        if isinstance(operand, str):
            return (
                "coalesce(json_typeof(i.value -> %s) = 'string' AND i.value ->> %s = %s, FALSE)",
                [field, field, operand],
            )
        return self._number(field, "=", float(operand))

    def differs(self, field: str, operand: Scalar) -> Sql:
        """See :meth:`FilterDialect.differs <memvault.filters.FilterDialect.differs>`."""
        equal, params = self.equals(field, operand)
        return (
            "coalesce(json_typeof(i.value -> %s) IN ('string', 'number', 'boolean'), FALSE) "
            f"AND NOT {equal}",
            [field, *params],
        )

    def compares(self, field: str, operator: str, operand: float) -> Sql:
        """See :meth:`FilterDialect.compares <memvault.filters.FilterDialect.compares>`."""
        return self._number(field, _SYMBOLS[operator], operand)

    def any_of(self, conditions: list[Sql]) -> Sql:
        """See :meth:`FilterDialect.any_of <memvault.filters.FilterDialect.any_of>`."""
        return "(" + " OR ".join(sql for sql, _ in conditions) + ")", _joined(conditions)

    def all_of(self, conditions: list[Sql]) -> Sql:
        """See :meth:`FilterDialect.all_of <memvault.filters.FilterDialect.all_of>`."""
        if not conditions:
            return "TRUE", []
        return " AND ".join(f"({sql})" for sql, _ in conditions), _joined(conditions)

    @staticmethod
    def _number(field: str, symbol: str, operand: float) -> Sql:
        return (
            "coalesce(CASE WHEN json_typeof(i.value -> %s) = 'number' "
            f"THEN (i.value ->> %s)::float8 {symbol} %s END, FALSE)",
            [field, field, operand],
        )


def _joined(conditions: list[Sql]) -> list[Any]:
    return [param for _, params in conditions for param in params]


JSON_SQL = JsonSql()


def _filter(clauses: Clauses) -> Sql:
    """SQL for filter clauses over ``i.value``, with the semantics of :mod:`memvault.filters`."""
    return compile_filter(clauses, JSON_SQL)


def _nearest_condition(prefix: Namespace, clauses: Clauses, now: float) -> tuple[str, list[Any]]:
    """SQL conditions (alias ``i``) of the records a dense search ranks."""
    scope, params = live_under(prefix, now, "%s")
    where, more = _filter(clauses)
    return f"{scope} AND {where} AND i.embedding IS NOT NULL", [*params, *more]


def _connection_lost(connection: psycopg.Connection[Any], error: psycopg.Error) -> bool:
    """Whether ``error`` says the connection is gone, not that the statement was wrong.

    The server shut it (SQLSTATE class 57P: a restart, ``pg_terminate_backend``), the link broke
    (class 08), or libpq found it closed (no SQLSTATE).
    """
    state = error.sqlstate
    return connection.broken or state is None or state.startswith(("57P", "08"))


def _ranking(rows: Sequence[Sequence[Any]]) -> Ranked:
    return [(item_id, float(score)) for item_id, score in rows]


def _by_score(rows: Sequence[Sequence[Any]]) -> Ranked:
    """``(id, score)`` rows best first, ties by id."""
    return sorted(_ranking(rows), key=lambda hit: (-hit[1], hit[0]))


def _cut(hits: Ranked, limit: int, wanted: int) -> Ranked | None:
    """The top ``limit`` of an HNSW ranking asked for ``wanted > limit``, or ``None``.

    ``None`` where ``wanted`` came back (best first) and the last one ties with the last one
    kept: another record of that score may be missing, and ties go by id: ask for more.
    """
    if len(hits) < wanted or hits[-1][1] < hits[limit - 1][1]:
        return hits[:limit]
    return None


_CARRIED_ROW = "(part, id, score, created, value, updated, expires)"
"""A row of a search statement that carries records (:meth:`PostgresBackend.search`): the
ranking (0 exact dense, 1 HNSW, 2 BM25), the record's id, score and ``created``, and its
value (JSON text), ``updated`` and ``expires`` for the ranking's top rows only (``NULL``
below them)."""


def _carrying(ranked: str, carry: int, schema: str) -> tuple[str, str, list[Any]]:
    """The select list and joins that make ``ranked``'s rows :data:`_CARRIED_ROW`.

    ``ranked`` is a subquery's alias with columns ``id``, ``created``, ``score`` and ``rank``
    (1 for the best, by score, ties by id); the record's other columns are read by its id
    for the top ``carry`` rows only: a lateral join whose condition on ``rank`` is a one-time
    filter checked before the read (``OFFSET 0`` keeps the planner from flattening it into a
    filter after the read), so rankings sort narrow rows and only the records a page may
    show are read.

    Returns:
        ``(select list without the part, FROM-clause tail, its parameters)``.
    """
    return (
        f"{ranked}.id, {ranked}.score, {ranked}.created, c.value::text, c.updated, c.expires",
        f"LEFT JOIN LATERAL (SELECT i.value, i.updated, i.expires FROM {schema}.items i "
        f"WHERE i.id = {ranked}.id AND {ranked}.rank <= %s OFFSET 0) AS c ON TRUE",
        [carry],
    )


_RANK = "row_number() OVER (ORDER BY {0}.score DESC, {0}.id) AS rank"
"""A ranking row's place (1 for the best, ties by id), for :func:`_carrying`."""


def _rows_carrying_records(rows: Sequence[Sequence[Any]]) -> dict[str, Sequence[Any]]:
    """The rows :data:`_CARRIED_ROW` that carry their record's value, by id."""
    return {row[1]: row for row in rows if row[4] is not None}


def _record_of_carried(row: Sequence[Any]) -> Record:
    """The record of a :data:`_CARRIED_ROW` carrying its value."""
    return record_of_row((row[1], row[4], row[3], row[5], row[6]))


def _lock_keys(schema: str, ids: Sequence[str]) -> list[int]:
    """Advisory lock keys of record ids (signed 64-bit), sorted: one order for every writer."""
    keys = {
        int.from_bytes(
            hashlib.blake2b(f"{schema}\x1f{i}".encode(), digest_size=8).digest(),
            "big",
            signed=True,
        )
        for i in ids
    }
    return sorted(keys)


class PostgresBackend(Backend):
    """Memories in a PostgreSQL database shared by any number of processes and machines.

    Records, embeddings (pgvector, HNSW, cosine), a full-text index and the history live in
    one schema and are written in one transaction per write (see the module docstring and
    ``docs/architecture.md``). Needs the extra: ``pip install 'memvault[postgres]'`` (psycopg
    3, its pool, pgvector's adapter), and a server with the ``vector`` extension (created here
    if the user may; else run ``CREATE EXTENSION vector`` once as its owner).

    Args:
        dsn: A libpq connection string or URI, e.g. ``"postgresql://user@host:5432/db"`` or
            ``"postgresql:///db?host=/var/run/postgresql"`` (a Unix socket); ``None`` or
            ``""``: libpq's defaults and ``PG*`` environment variables.
        pool: A ``psycopg_pool.ConnectionPool`` of your own instead of ``dsn`` (left open at
            :meth:`close`).
        schema: The Postgres schema of the store's tables (created if missing): lower-case
            letters, digits and ``_``, up to 63. One store per schema.
        exact_scope: Dense search ranks scopes of up to this many live records exactly, and
            lexical search reads them to match its words; larger ones ask the HNSW and the
            GIN index (see :data:`EXACT_SCOPE`).
        max_connections: Most connections of the pool made here.
        timeout: Seconds to wait for a connection (server down, pool exhausted) before
            :class:`~memvault.errors.BackendUnavailableError`.
        lock_timeout: Seconds a write waits for another writer of one of its keys before
            :class:`~memvault.errors.StoreBusyError` (see :data:`LOCK_TIMEOUT`).
        create: Create the schema, its tables and the ``vector`` extension where missing
            (the default); with ``False`` a schema without a store is an error, for a reader
            that must not make an empty store of a mistyped name.

    Raises:
        ImportError: If psycopg is missing (the message names the extra to install).
        InvalidArgumentError: On a bad schema name or option, or both ``dsn`` and ``pool``;
            with ``create=False``, if the schema holds no store.
        BackendUnavailableError: If the server cannot be reached (names host or socket).
        BackendError: If the server refuses (e.g. the ``vector`` extension is missing and the
            user may not create it), or the schema was written by a newer memvault.
        StoreDamagedError: If the schema holds tables that are not memvault's.

    Example:
        >>> backend = PostgresBackend("postgresql://localhost/app")  # doctest: +SKIP
        >>> store = MemoryStore(backend=backend)  # doctest: +SKIP
    """

    search_modes: tuple[SearchMode, ...] = ("hybrid", "dense", "lexical")
    supports_compare_and_set = True

    def __init__(
        self,
        dsn: str | None = None,
        *,
        pool: ConnectionPool | None = None,
        schema: str = DEFAULT_SCHEMA,
        exact_scope: int = EXACT_SCOPE,
        max_connections: int = 10,
        timeout: float = 30.0,
        lock_timeout: float = LOCK_TIMEOUT,
        create: bool = True,
    ) -> None:
        try:
            import pgvector.psycopg  # noqa: F401 - used per connection (_connection)
            import psycopg
            import psycopg_pool
        except ImportError as error:
            raise ImportError(
                f"PostgresBackend needs psycopg 3, psycopg-pool and pgvector ({error.name} is "
                f"missing): {_INSTALL}",
                name=error.name,
            ) from error
        self._closed = False
        self._pool: ConnectionPool | None = None
        self._own_pool = pool is None
        check_schema_name(schema)
        if isinstance(exact_scope, bool) or not isinstance(exact_scope, int) or exact_scope < 0:
            raise InvalidArgumentError(f"exact_scope must be an int >= 0, got {exact_scope!r}")
        if pool is not None and dsn is not None:
            raise InvalidArgumentError("give PostgresBackend a dsn or a pool, not both")
        self.schema = schema
        self.create = create
        self.exact_scope = exact_scope
        self.timeout = timeout
        for name, seconds in (("timeout", timeout), ("lock_timeout", lock_timeout)):
            if (
                isinstance(seconds, bool)
                or not isinstance(seconds, (int, float))
                or not 0 < seconds <= 1e6  # also refuses NaN and infinity
            ):
                raise InvalidArgumentError(
                    f"{name} must be a number of seconds above 0 and at most 1e6, got {seconds!r}"
                )
        self.lock_timeout = float(lock_timeout)
        if (
            isinstance(max_connections, bool)
            or not isinstance(max_connections, int)
            or max_connections < 1
        ):
            raise InvalidArgumentError(
                f"max_connections must be an int >= 1, got {max_connections!r}"
            )
        self._dim: int | None = None
        self._vector_connections: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()
        self._vector_type_exists = False  # until _open has made sure of the extension
        given = getattr(pool, "conninfo", "") if pool is not None else dsn
        conninfo = given if isinstance(given, str) else ""
        self.address = _address(conninfo)
        if pool is None:
            check_dsn(conninfo)
            with self._translated():
                # Reach the server once before a pool exists: a server that is down fails
                # here at once, not after the pool's timeout.
                psycopg.connect(conninfo, connect_timeout=max(1, int(timeout))).close()
                pool = psycopg_pool.ConnectionPool(
                    conninfo,
                    min_size=1,
                    max_size=max_connections,
                    kwargs={"autocommit": True},
                    timeout=timeout,
                    open=True,  # no check per checkout: see _connection and _fetch
                    name=f"memvault-{schema}",
                )
        self._pool = pool
        try:
            self._open()
            self._vector_type_exists = True
        except BaseException:
            self.close()
            raise

    # -- connections and errors -----------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """Errors of psycopg leave as memvault's, with the cause chained."""
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
                f"no connection to the PostgreSQL server at {self.address} within "
                f"{self.timeout:g} s ({error}); start it, check the address, or raise "
                "max_connections"
            ) from error
        except (
            errors.LockNotAvailable,
            errors.DeadlockDetected,
            errors.SerializationFailure,
            errors.QueryCanceled,
        ) as error:
            raise StoreBusyError(
                f"the PostgreSQL server at {self.address} gave up waiting for another "
                f"writer ({type(error).__name__}: {error}); retry"
            ) from error
        except (
            errors.UndefinedTable,
            errors.UndefinedColumn,
            errors.InvalidSchemaName,
            errors.UndefinedFunction,
        ) as error:
            raise StoreDamagedError(
                f"the memvault tables in schema {self.schema!r} at {self.address} are missing "
                f"or changed ({error}); open the store again to create them, or restore the "
                "schema from a backup"
            ) from error
        except psycopg.OperationalError as error:
            raise BackendUnavailableError(
                f"the PostgreSQL server at {self.address} cannot be reached or closed the "
                f"connection ({error}); check that it runs and the connection string (host, "
                "port or socket folder, database, user)"
            ) from error
        except psycopg.Error as error:
            raise BackendError(
                f"the PostgreSQL server at {self.address} refused the operation: "
                f"{type(error).__name__}: {error}"
            ) from error

    def _live_pool(self) -> ConnectionPool:
        """The pool, or :class:`~memvault.errors.StoreClosedError` once the store is closed."""
        if self._closed or self._pool is None:
            raise StoreClosedError("the store was closed; open a new MemoryStore")
        return self._pool

    @contextlib.contextmanager
    def _connection(self, *, checked: bool) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, its errors translated (:meth:`_translated`).

        With ``checked``, the connection is first checked by an empty statement (a round trip)
        and, where the server dropped it, replaced by another: a write must not find out in
        the middle of its transaction. Reads skip the check and are sent again instead where
        the connection was dropped (:meth:`_fetch`). A connection found dropped while it is set
        up is replaced too.

        Once the schema is open (the ``vector`` extension exists), each connection is set up
        at its first use: it learns to send numpy vectors in pgvector's binary format, with
        pgvector's own adapter (``pgvector.psycopg``; formatting floats as text costs more
        than the query), and takes the HNSW scan's settings (:data:`_SCAN_SETTINGS`).
        """
        import psycopg
        import psycopg_pool

        pool = self._live_pool()
        with self._translated():
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
        """At a connection's first use once the schema is open: see :meth:`_connection`."""
        if self._vector_type_exists and connection not in self._vector_connections:
            from pgvector.psycopg import register_vector

            register_vector(connection)
            for setting in _SCAN_SETTINGS:
                connection.execute(setting)
            if not connection.autocommit:
                connection.commit()
            self._vector_connections.add(connection)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor inside one transaction on a checked connection; committed on success.

        Rolled back on any error.
        """
        with (
            self._connection(checked=True) as connection,
            connection.transaction(),
            connection.cursor() as cursor,
        ):
            yield cursor

    def _fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of one read statement: one round trip, no ``BEGIN`` and ``COMMIT``.

        The connection is not checked first (a round trip of its own); where the server had
        dropped it (a restart, an idle timeout), the statement is sent again on another
        connection, as often as the pool holds connections: a read changes nothing. One
        statement is a transaction of its own; where the pool's connections are not in
        autocommit, an explicit transaction brackets it. Statements are prepared by psycopg
        once they repeat.
        """
        import psycopg

        tries = self._live_pool().max_size + 1  # every pooled connection may have been dropped
        for attempt in range(1, tries + 1):
            with self._connection(checked=False) as connection:
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

    def _open(self) -> None:
        """Create or check the schema, under a lock that serialises every opener."""
        import psycopg

        s = self.schema
        with self._transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            cur.execute("SELECT 1 FROM pg_get_keywords() WHERE word = %s AND catcode <> 'U'", (s,))
            if cur.fetchone() is not None:
                raise InvalidArgumentError(
                    f"schema {s!r} is an SQL keyword of PostgreSQL; give another schema name"
                )
            if not self.create:
                cur.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = %s", (s,))
                if cur.fetchone() is None:
                    raise InvalidArgumentError(
                        f"no memvault store in schema {s!r} at {self.address}; check the schema "
                        "(and the database), or create the store (PostgresBackend(create=True), "
                        "'memvault --dsn ... ingest')"
                    )
            cur.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
            if cur.fetchone() is None:
                try:
                    cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
                except psycopg.errors.InsufficientPrivilege as error:
                    raise BackendError(
                        f"the PostgreSQL server at {self.address} refuses this role the "
                        "creation of the pgvector extension: run CREATE EXTENSION vector once "
                        "in this database as its owner (or a superuser)"
                    ) from error
            cur.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (s,))
            if cur.fetchone() is None:  # a role that may only use the tables need not create
                cur.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
            cur.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (s,),
            )
            tables = {row[0] for row in cur.fetchall()}
            if not tables:
                self._create(cur)
                return
            if "meta" not in tables:
                raise StoreDamagedError(
                    f"schema {s!r} at {self.address} holds tables {sorted(tables)} that are "
                    "not memvault's; give PostgresBackend another schema"
                )
            version = self._meta(cur, "schema")
            if version is None or not version.isdigit():
                raise StoreDamagedError(
                    f"schema {s!r} at {self.address} has no memvault schema version; give "
                    "PostgresBackend another schema"
                )
            if int(version) > SCHEMA_VERSION:
                raise BackendError(
                    f"schema {s!r} at {self.address} was written by a newer memvault (schema "
                    f"version {version}; this one reads up to {SCHEMA_VERSION}): upgrade "
                    "memvault"
                )
            if int(version) < SCHEMA_VERSION:
                migrate(int(version), {2: lambda: self._migrate_to_2(cur)}, SCHEMA_VERSION)
                self._set_meta(cur, "schema", str(SCHEMA_VERSION))
            dim = self._meta(cur, "dim")
            self._dim = None if dim is None else int(dim)

    def _migrate_to_2(self, cur: psycopg.Cursor[Any]) -> None:
        """Schema 1 to 2: rows kept whole, the ``ns`` index carrying ``expires`` and ``length``.

        Records written before stay as they are until updated.
        """
        s = self.schema
        cur.execute(f"ALTER TABLE {s}.items SET ({_ROW_TARGET})")
        cur.execute(f"DROP INDEX {s}.items_by_ns")
        cur.execute(_NS_INDEX.format(s=s))

    def _create(self, cur: psycopg.Cursor[Any]) -> None:
        s = self.schema
        for statement in (
            f"CREATE TABLE {s}.meta (name text PRIMARY KEY, value text NOT NULL)",
            f"""CREATE TABLE {s}.items (
                id text COLLATE "C" PRIMARY KEY,
                ns text COLLATE "C" NOT NULL,
                value json NOT NULL,
                created double precision NOT NULL,
                updated double precision NOT NULL,
                expires double precision,
                embedding vector,
                words tsvector NOT NULL,
                length integer NOT NULL
            ) WITH ({_ROW_TARGET})""",
            _NS_INDEX.format(s=s),
            f"CREATE INDEX items_by_recency ON {s}.items (updated DESC, id)",
            f"CREATE INDEX items_words ON {s}.items USING gin (words)",
            f"""CREATE TABLE {s}.history (
                seq bigserial PRIMARY KEY,
                id text COLLATE "C" NOT NULL,
                ns text COLLATE "C" NOT NULL,
                at double precision NOT NULL,
                event text NOT NULL,
                source text NOT NULL,
                before json,
                after json
            )""",
            f"CREATE INDEX history_by_id ON {s}.history (id, at, seq)",
            f"CREATE INDEX history_by_ns ON {s}.history (ns)",
        ):
            cur.execute(statement)
        self._set_meta(cur, "schema", str(SCHEMA_VERSION))

    def _meta(self, cur: psycopg.Cursor[Any], name: str) -> str | None:
        cur.execute(f"SELECT value FROM {self.schema}.meta WHERE name = %s", (name,))
        row = cur.fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, cur: psycopg.Cursor[Any], name: str, value: str) -> None:
        cur.execute(
            f"INSERT INTO {self.schema}.meta VALUES (%s, %s) "
            "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
            (name, value),
        )

    def _wait_for(self, cur: psycopg.Cursor[Any]) -> None:
        """Bound this transaction's lock waits by ``lock_timeout``."""
        cur.execute(
            "SELECT set_config('lock_timeout', %s, TRUE)", (f"{int(self.lock_timeout * 1000)}ms",)
        )

    def _check_dim(self, cur: psycopg.Cursor[Any], dim: int) -> None:
        """Fix the embedding dimension at the first write (typed column, HNSW index)."""
        if self._dim is None:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            recorded = self._meta(cur, "dim")
            if recorded is None:
                s = self.schema
                cur.execute(f"ALTER TABLE {s}.items ALTER COLUMN embedding TYPE vector({dim})")
                cur.execute(
                    f"CREATE INDEX items_embedding ON {s}.items "
                    "USING hnsw (embedding vector_cosine_ops)"
                )
                self._set_meta(cur, "dim", str(dim))
                recorded = str(dim)
            self._dim = int(recorded)
        if dim != self._dim:
            raise EmbedderMismatchError(
                f"the store in schema {self.schema!r} at {self.address} holds embeddings of "
                f"dimension {self._dim}, not {dim}; use the embedder it was written with"
            )

    # -- writes ---------------------------------------------------------------------------

    def upsert(
        self, records: Sequence[Record], embeddings: Vectors, *, now: float, change: Change
    ) -> list[Record]:
        """Insert or replace records and write their history, in one transaction.

        Each key is locked (advisory, transaction-level) before its previous version is read,
        so writers of one key, in any process, take turns; a version live at ``now`` lends
        its ``created_at``, and ``change.expected`` is checked against the versions read,
        under those locks. See :meth:`Backend.upsert <memvault.backends.base.Backend.upsert>`.

        Raises:
            ConflictError: Where a version read is not the one ``change.expected`` names;
                nothing is written.
            EmbedderMismatchError: If the embeddings' dimension is not the store's.
            BackendUnavailableError, BackendError, StoreBusyError: From the server.
        """
        if not records and not change.imported_history:
            return []
        vectors = unit_vectors(embeddings) if records else np.zeros((0, 0), dtype=np.float32)
        s = self.schema
        carried = sorted({record_id(e.namespace, e.key) for e in change.imported_history})
        ids = [r.id for r in records]
        with self._transaction() as cur:
            self._wait_for(cur)
            if records:
                self._check_dim(cur, int(vectors.shape[1]))
            cur.execute(
                "SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k",
                (_lock_keys(s, [*ids, *carried]),),
            )
            found: dict[str, Record] = {}
            if ids:
                cur.execute(
                    f"SELECT {RECORD_COLUMNS} FROM {s}.items i WHERE i.id = ANY(%s) FOR UPDATE",
                    (ids,),
                )
                found = {row[0]: record_of_row(row) for row in cur.fetchall()}
            previous = [found.get(i) for i in ids]
            check_expected(records, previous, change, now=now)
            stored = [
                replace(r, created_at=old.created_at) if old is not None and old.live(now) else r
                for r, old in zip(records, previous)
            ]
            if stored:
                cur.executemany(
                    f"INSERT INTO {s}.items AS i VALUES "
                    "(%s, %s, %s::json, %s, %s, %s, %s::vector, %s::tsvector, %s) "
                    "ON CONFLICT (id) DO UPDATE SET ns = EXCLUDED.ns, value = EXCLUDED.value, "
                    "created = EXCLUDED.created, updated = EXCLUDED.updated, "
                    "expires = EXCLUDED.expires, embedding = EXCLUDED.embedding, "
                    "words = EXCLUDED.words, length = EXCLUDED.length",
                    [
                        (
                            r.id,
                            ns_key(r.namespace),
                            json_text(r.value),
                            r.created_at,
                            r.updated_at,
                            r.expires_at,
                            vector,
                            *tsvector_of(indexed_text(r.value)),
                        )
                        for r, vector in zip(stored, vectors)
                    ],
                )
            kept: list[HistoryEntry] = []
            if carried:
                cur.execute(
                    f"SELECT {HISTORY_COLUMNS} FROM {s}.history WHERE id = ANY(%s) "
                    "ORDER BY id, at, seq",
                    (carried,),
                )
                kept = [entry_of_row(row) for row in cur.fetchall()]
            self._append_history(
                cur, entries_of_upsert(records, previous, now=now, change=change, kept=kept)
            )
        return stored

    def _append_history(self, cur: psycopg.Cursor[Any], entries: Sequence[HistoryEntry]) -> None:
        if not entries:
            return
        cur.executemany(
            f"INSERT INTO {self.schema}.history (id, ns, at, event, source, before, after) "
            "VALUES (%s, %s, %s, %s, %s, %s::json, %s::json)",
            [history_row(e) for e in entries],
        )

    def delete(self, ids: Sequence[str], *, now: float, source: str) -> None:
        """Delete records by id and record it, in one transaction; absent ids are ignored.

        See :meth:`Backend.delete <memvault.backends.base.Backend.delete>`.
        """
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return
        s = self.schema
        with self._transaction() as cur:
            self._wait_for(cur)
            cur.execute(
                "SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k",
                (_lock_keys(s, distinct),),
            )
            cur.execute(
                f"DELETE FROM {s}.items i WHERE i.id = ANY(%s) RETURNING {RECORD_COLUMNS}",
                (distinct,),
            )
            found = {row[0]: record_of_row(row) for row in cur.fetchall()}
            previous = [found.get(i) for i in distinct]
            self._append_history(cur, entries_of_delete(previous, now=now, source=source))

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent; one per id given."""
        if not ids:
            self._live_pool()
            return []
        rows = self._fetch(  # ids in binary: no quoting of each one
            f"SELECT {RECORD_COLUMNS} FROM {self.schema}.items i WHERE i.id = ANY(%b)",
            (list(dict.fromkeys(ids)),),
        )
        found = {row[0]: record_of_row(row) for row in rows}
        return [found.get(i) for i in ids]

    def recent(
        self, prefix: Namespace, *, clauses: Clauses, now: float, limit: int, offset: int = 0
    ) -> list[Record]:
        """Live matching records, most recently updated first, ties by id."""
        scope, params = live_under(prefix, now, "%s")
        where, more = _filter(clauses)
        rows = self._fetch(
            f"SELECT {RECORD_COLUMNS} FROM {self.schema}.items i WHERE {scope} AND {where} "
            "ORDER BY i.updated DESC, i.id LIMIT %s OFFSET %s",
            [*params, *more, limit, offset],
        )
        return [record_of_row(row) for row in rows]

    def search(self, request: SearchRequest) -> Page:
        """One page of a search; a lexical or a hybrid page in one round trip.

        Recency lists and dense pages are the default's (:meth:`recent`,
        :meth:`dense_records`: one round trip each). A lexical or hybrid page is one
        statement: the rankings (for hybrid, the dense and the BM25 top
        :data:`~memvault.fusion.FUSION_DEPTH`, the dense one counting the scope by the BM25
        statistics' count), each ranked record's ``created`` (the dates a query names) and
        the records of each ranking's top ``2 * (offset + limit)``. The hybrid order is
        fused by :func:`memvault.fusion.hybrid_page`, as on every backend; a page item
        outside the tops carried is read by :meth:`get` (a second round trip, rare), and so
        is a page reaching past the fused block.

        See :meth:`Backend.search <memvault.backends.base.Backend.search>`.
        """
        r = request
        if r.query is None or r.mode not in ("lexical", "hybrid"):
            return super().search(r)
        page_end = r.offset + r.limit
        if r.mode == "lexical":
            parts = self._bm25_parts(r.query, r.prefix, r.clauses, r.now, page_end, page_end)
            if parts is None:
                self._live_pool()
                return []
            ctes, cte_params, select, select_params = parts
            rows = self._fetch(
                f"WITH {ctes} SELECT 2, b.* FROM ({select}) AS b", [*cte_params, *select_params]
            )
            ranked = _by_score([(row[1], row[2]) for row in rows])
            return list(self._with_carried(ranked[r.offset :], rows))
        assert r.embedding is not None
        embedding = r.embedding
        vector = unit_vectors([embedding])[0]
        rows = self._fetch(*self._hybrid_statement(r, vector, FUSION_DEPTH, carry=2 * page_end))
        lexical = _by_score([(row[1], row[2]) for row in rows if row[0] == 2])
        dense = self._dense_ranking(
            [row[:3] for row in rows], vector, r.prefix, r.clauses, r.now, FUSION_DEPTH
        )
        dated: set[str] = set()
        if r.periods:
            created = {row[1]: row[3] for row in rows}
            unread = [i for i, _ in dense if i not in created]  # an HNSW ranking asked again
            created.update((x.id, x.created_at) for x in self.get(unread) if x is not None)
            dated = {i for i, at in created.items() if r.names_period_of(at)}

        def dense_below(n: int) -> Ranked:
            return self.dense(r.prefix, embedding=embedding, clauses=r.clauses, now=r.now, limit=n)

        top = (dense, lexical)
        page = hybrid_page(top, dense_below, offset=r.offset, limit=r.limit, dated=dated)
        return list(self._with_carried(page, rows))

    def _with_carried(self, ranked: Ranked, rows: Sequence[Sequence[Any]]) -> Found:
        """``ranked`` with each record: from the ``rows`` carrying it, else read by :meth:`get`.

        Records gone since their ranking are left out, as :func:`with_records` does.
        """
        carried = _rows_carrying_records(rows)
        records = {i: _record_of_carried(carried[i]) for i, _ in ranked if i in carried}
        missing = [item_id for item_id, _ in ranked if item_id not in records]
        records.update((x.id, x) for x in self.get(missing) if x is not None)
        return [(records[i], score) for i, score in ranked if i in records]

    def _hybrid_statement(
        self, request: SearchRequest, vector: np.ndarray, limit: int, *, carry: int
    ) -> tuple[str, list[Any]]:
        """The statement of a hybrid search: :data:`_CARRIED_ROW` rows of both rankings.

        ``vector`` is the request's embedding at unit length. The dense ranking counts the
        scope by the BM25 statistics' ``scope``; without query words, by a ``size`` CTE of
        its own, and there is no BM25 part.
        """
        r = request
        assert r.query is not None
        bm25 = self._bm25_parts(r.query, r.prefix, r.clauses, r.now, limit, carry)
        if bm25 is None:
            size, nearest, params = self._nearest(
                vector, r.prefix, r.clauses, r.now, limit, carry=carry
            )
            return f"WITH {size} {nearest}", params
        ctes, cte_params, select, select_params = bm25
        _, nearest, params = self._nearest(
            vector, r.prefix, r.clauses, r.now, limit, counted="scope", carry=carry
        )
        return (
            f"WITH {ctes} {nearest} UNION ALL SELECT 2, b.* FROM ({select}) AS b",
            [*cte_params, *params, *select_params],
        )

    def dense(
        self,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> Ranked:
        """The ``limit`` live matching records nearest to ``embedding``, by cosine similarity.

        Exact (ties by id, also at the cut) for scopes of up to ``exact_scope`` live records;
        a larger scope asks the HNSW index with pgvector's iterative scan (approximate). One
        round trip (:meth:`_rankings`), two where the HNSW ranking ties at the cut.

        Returns:
            ``(id, cosine similarity)`` pairs, most similar first, ties by id.
        """
        return self._rankings(None, prefix, embedding, clauses, now, limit)[0]

    def dense_records(
        self,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> Found:
        """:meth:`dense` with each record, read by the ranking's statement: one round trip.

        Three where the HNSW ranking ties at the cut (:meth:`_index_ranking`, :meth:`get`).

        Returns:
            ``(record, cosine similarity)`` pairs, most similar first, ties by id.
        """
        vector = unit_vectors([embedding])[0]
        size, nearest, params = self._nearest(vector, prefix, clauses, now, limit, carry=limit)
        rows = self._fetch(f"WITH {size} {nearest}", params)
        ranked = self._dense_ranking([row[:3] for row in rows], vector, prefix, clauses, now, limit)
        return self._with_carried(ranked, rows)

    def lexical(
        self, query: str, prefix: Namespace, *, clauses: Clauses, now: float, limit: int
    ) -> Ranked:
        """Live matching records holding any of the query's words, by BM25 over the scope.

        Filters apply after the statistics are read (see the module docstring), so a filter
        narrows the records returned, not the word rarities that rank them.

        Returns:
            ``(id, BM25 score > 0)`` pairs, best first, ties by id.
        """
        statement = self._bm25(query, prefix, clauses, now, limit)
        if statement is None:
            self._live_pool()
            return []
        return _ranking(self._fetch(*statement))

    def both_rankings(
        self,
        query: str,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> tuple[Ranked, Ranked]:
        """:meth:`dense` and :meth:`lexical` of one search, in one SQL statement.

        One round trip (:meth:`_rankings`), two where the HNSW ranking ties at the cut.

        Returns:
            ``(dense, lexical)`` as :meth:`dense` and :meth:`lexical` return them.
        """
        return self._rankings(query, prefix, embedding, clauses, now, limit)

    def _rankings(
        self,
        query: str | None,
        prefix: Namespace,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> tuple[Ranked, Ranked]:
        """The dense ranking and, given a query, the BM25 ranking, in one SQL statement.

        The statement counts the scope and runs either the exact ranking or the HNSW one (the
        other is never executed: a one-time filter on the count), and the BM25 ranking: one
        round trip. Where the HNSW ranking ties at its cut, :meth:`_index_ranking` asks for
        more.

        Returns:
            ``(dense, lexical)``; ``lexical`` is ``[]`` without a query (or its words).
        """
        vector = unit_vectors([embedding])[0]
        size, nearest, params = self._nearest(vector, prefix, clauses, now, limit)
        parts = [nearest]
        bm25 = None if query is None else self._bm25(query, prefix, clauses, now, limit)
        if bm25 is not None:
            parts.append(f"SELECT 2, b.* FROM ({bm25[0]}) AS b")
            params += bm25[1]
        rows = self._fetch(f"WITH {size} {' UNION ALL '.join(parts)}", params)
        lexical = _by_score([(item_id, score) for part, item_id, score in rows if part == 2])
        dense = self._dense_ranking(rows, vector, prefix, clauses, now, limit)
        return dense, lexical

    def _dense_ranking(
        self,
        rows: Sequence[tuple[int, str, float]],
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> Ranked:
        """The dense ranking from :meth:`_nearest`'s ``(part, id, score)`` rows (others ignored).

        The exact ranking's, or the HNSW ranking's top ``limit`` where it does not tie at its
        cut; else :meth:`_index_ranking` asks for more.
        """
        exact, index = ([(i, score) for part, i, score in rows if part == p] for p in (0, 1))
        dense = _by_score(exact) or _cut(_by_score(index), limit, limit + 1)
        if dense is None:
            dense = self._index_ranking(vector, prefix, clauses, now, limit, 2 * (limit + 1))
        return dense

    def _index_ranking(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
        wanted: int,
    ) -> Ranked:
        """The HNSW ranking's top ``limit``: ``wanted`` records asked for, then twice as many.

        Until every record tied with the last one kept is there, to be ordered by id.
        """
        while True:
            rows = self._fetch(*self._index_nearest(vector, prefix, clauses, now, wanted))
            complete = _cut(
                _by_score([(item_id, score) for item_id, _, score in rows]), limit, wanted
            )
            if complete is not None:
                return complete
            wanted *= 2

    # -- the statements of searches -------------------------------------------------------

    def _nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
        *,
        counted: str | None = None,
        carry: int | None = None,
    ) -> tuple[str, str, list[Any]]:
        """SQL of a dense ranking: a ``size`` CTE, and rows ``(part, id, score)``.

        Part 0 is the exact ranking's top ``limit`` where the scope holds at most
        ``exact_scope`` live records, part 1 the HNSW ranking's ``limit + 1`` where it holds
        more (the other part is never executed: a one-time filter on the count).

        ``counted`` names a CTE of the statement that counts the scope's live records as
        ``live`` (a BM25 ranking's ``scope``); without it, the ``size`` CTE returned counts
        them. With ``carry`` the rows are :data:`_CARRIED_ROW`, the records of the ranking's
        top ``carry`` read with it (:func:`_carrying`).

        Returns:
            ``(the CTE or "", the ranking's SELECT, their parameters)``.
        """
        cte, size_params = "", list[Any]()
        if counted is None:
            size, size_params = self._scope_size(prefix, now)
            cte, counted = f"size AS MATERIALIZED ({size})", "size"
        exact = self._exact_nearest(vector, prefix, clauses, now, limit)
        index = self._index_nearest(vector, prefix, clauses, now, limit + 1)
        parts = []
        for part, (sql, params) in enumerate((exact, index)):
            branch = f"(SELECT live FROM {counted}) {'<=' if part == 0 else '>'} %s"
            if carry is None:
                parts.append(
                    (
                        f"SELECT {part}, r.id, r.score FROM ({sql}) AS r WHERE {branch}",
                        [*params, self.exact_scope],
                    )
                )
                continue
            picked, joined, picked_params = _carrying("r", carry, self.schema)
            parts.append(
                (
                    f"SELECT {part}, {picked} FROM (SELECT n.*, {_RANK.format('n')} "
                    f"FROM ({sql}) AS n) AS r {joined} WHERE {branch}",
                    [*params, *picked_params, self.exact_scope],
                )
            )
        return (
            cte,
            " UNION ALL ".join(sql for sql, _ in parts),
            [*size_params, *(param for _, params in parts for param in params)],
        )

    def _scope_size(self, prefix: Namespace, now: float) -> tuple[str, list[Any]]:
        """SQL giving ``live``: live records under ``prefix``, counted up to ``exact_scope + 1``.

        Enough to choose between the exact and the HNSW ranking.
        """
        scope, params = live_under(prefix, now, "%s")
        return (
            f"SELECT count(*) AS live FROM (SELECT 1 FROM {self.schema}.items i WHERE {scope} "
            "LIMIT %s) AS counted",
            [*params, self.exact_scope + 1],
        )

    def _exact_nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> tuple[str, list[Any]]:
        """SQL ranking the scope's matching records exactly: ``(id, created, score)``, best first.

        The score expression is not the index's operator, so Postgres ranks exactly; the rows
        sorted are narrow (a record's other columns are read for the top only, by id).
        """
        condition, params = _nearest_condition(prefix, clauses, now)
        return (
            "SELECT i.id, i.created, -(i.embedding <#> %s::vector) AS score "
            f"FROM {self.schema}.items i WHERE {condition} ORDER BY score DESC, i.id LIMIT %s",
            [vector, *params, limit],
        )

    def _index_nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> tuple[str, list[Any]]:
        """SQL asking the HNSW index for ``limit`` matching records: ``(id, created, score)``.

        In the index's relaxed order (sort them); see :data:`_SCAN_SETTINGS`.
        """
        condition, params = _nearest_condition(prefix, clauses, now)
        return (
            "SELECT i.id, i.created, -(i.embedding <#> %s::vector) AS score "
            f"FROM {self.schema}.items i WHERE {condition} ORDER BY i.embedding <=> %s::vector "
            "LIMIT %s",
            [vector, *params, vector, limit],
        )

    def _bm25(
        self, query: str, prefix: Namespace, clauses: Clauses, now: float, limit: int
    ) -> tuple[str, list[Any]] | None:
        """SQL ranking the scope's records by BM25 (:meth:`lexical`): ``(id, score)``.

        Best first, ties by id; ``None`` for a query without words.
        """
        parts = self._bm25_parts(query, prefix, clauses, now, limit)
        if parts is None:
            return None
        ctes, cte_params, select, select_params = parts
        return f"WITH {ctes} {select}", [*cte_params, *select_params]

    def _bm25_parts(
        self,
        query: str,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        limit: int,
        carry: int | None = None,
    ) -> tuple[str, list[Any], str, list[Any]] | None:
        """The CTEs and the SELECT of a BM25 ranking, for :meth:`_bm25` or a larger statement.

        The CTEs include ``scope``: the BM25 statistics of every record stored under
        ``prefix`` (``n`` and ``mean`` length, expired records not yet cleaned up included,
        as on the record file: :mod:`memvault.lexical`) and how many are ``live``, which a
        dense ranking of the same statement may count by
        (:meth:`_nearest`'s ``counted``). With ``carry``, the rows are :data:`_CARRIED_ROW`
        without their part, the value read for the ranking's top ``carry`` only; without it,
        ``(id, score)``.

        Returns:
            ``(CTEs, their parameters, SELECT, its parameters)``; ``None`` for a query
            without words.
        """
        expression = tsquery_of(query)
        if expression is None:
            return None
        words = query_terms(query)
        scope, params = live_under(prefix, now, "%s")
        where, more = _filter(clauses)
        t = self.schema
        # The query words' term frequencies come from marking them (setweight) and keeping
        # only the marked (ts_filter), in C: unnesting whole tsvectors cost 3 times as much.
        # A record's terms are summed in one order, so that its score is the same float in
        # every plan (records with the same words tie exactly, ordered by id).
        # A scope of up to exact_scope records is read by the ns index and its records matched
        # one by one (ts_match_vq is @@ that no index serves): the GIN index would collect
        # every record of the store holding a query word, a cost growing with other users'
        # memories. A larger scope is found by the GIN index. One branch runs (a one-time
        # filter on the scope's count).
        found = (
            f"SELECT i.id, i.created, i.words, i.length::float8, ({where}) AS kept FROM {t}.items i"
        )
        stored, stored_params = under(prefix, "i.ns", "%s")
        ctes = f"""scope AS (
                SELECT count(*)::float8 AS n, coalesce(avg(i.length), 0)::float8 AS mean,
                    count(*) FILTER (WHERE i.expires IS NULL OR i.expires > %s) AS live
                FROM {t}.items i WHERE {stored}
            ), found AS (
                {found} WHERE ts_match_vq(i.words, %s::tsquery) AND {scope}
                    AND (SELECT live FROM scope) <= %s
                UNION ALL
                {found} WHERE i.words @@ %s::tsquery AND {scope}
                    AND (SELECT live FROM scope) > %s
            ), terms AS (
                SELECT f.id, f.created, f.kept, f.length, w.lexeme,
                    cardinality(w.positions)::float8 AS tf
                FROM found f,
                unnest(ts_filter(setweight(f.words, 'A', %s::text[]), '{{a}}')) AS w
            ), rarity AS (
                SELECT lexeme, ln(1 + (s.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
                FROM terms, scope s GROUP BY lexeme, s.n
            )"""
        cte_params = [
            now,
            *stored_params,
            *more,
            expression,
            *params,
            self.exact_scope,
            *more,
            expression,
            *params,
            self.exact_scope,
            words,
        ]
        score = """sum(r.idf * t.tf * (%s + 1)
                / (t.tf + %s * (1 - %s + %s * t.length / greatest(s.mean, 1)))
                ORDER BY t.lexeme)"""
        ranked = (
            "FROM terms t JOIN rarity r USING (lexeme), scope s WHERE t.kept "
            "GROUP BY t.id, t.created ORDER BY score DESC, t.id LIMIT %s"
        )
        constants: list[Any] = [BM25_K1, BM25_K1, BM25_B, BM25_B]
        if carry is None:
            return ctes, cte_params, f"SELECT t.id, {score} AS score {ranked}", [*constants, limit]
        picked, joined, picked_params = _carrying("b", carry, t)
        select = (
            f"SELECT {picked} FROM (SELECT n.*, {_RANK.format('n')} FROM (SELECT t.id, "
            f"t.created, {score} AS score {ranked}) AS n) AS b {joined}"
        )
        return ctes, cte_params, select, [*constants, limit, *picked_params]

    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        scope, params = live_under(prefix, now, "%s")
        ((count,),) = self._fetch(
            f"SELECT count(*) FROM {self.schema}.items i WHERE {scope}", params
        )
        return int(count)

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order."""
        scope, params = live_under(prefix, now, "%s")
        rows = self._fetch(f"SELECT DISTINCT i.ns FROM {self.schema}.items i WHERE {scope}", params)
        return [namespace_of_key(row[0]) for row in rows]

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``, by id; expired ones too if ``now`` is None."""
        self._live_pool()
        return self._scan(prefix, now)

    def _scan(self, prefix: Namespace, now: float | None) -> Iterator[Record]:
        scope, params = live_under(prefix, now, "%s")
        last = ""
        while True:
            rows = self._fetch(
                f"SELECT {RECORD_COLUMNS} FROM {self.schema}.items i WHERE {scope} "
                "AND i.id > %s ORDER BY i.id LIMIT %s",
                [*params, last, _PAGE],
            )
            yield from (record_of_row(row) for row in rows)
            if len(rows) < _PAGE:
                return
            last = rows[-1][0]

    def history(self, namespace: Namespace, key: str) -> list[HistoryEntry]:
        """Every change to ``(namespace, key)``, oldest first (by ``at``, then as written)."""
        rows = self._fetch(
            f"SELECT {HISTORY_COLUMNS} FROM {self.schema}.history WHERE id = %s ORDER BY at, seq",
            (record_id(namespace, key),),
        )
        return [entry_of_row(row) for row in rows]

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, by record id, each key oldest first."""
        self._live_pool()
        return self._history_under(prefix)

    def _history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        scope, params = under(prefix, "ns", "%s")
        sql = (
            f"SELECT {HISTORY_COLUMNS}, seq FROM {self.schema}.history "
            f"WHERE (id, at, seq) > (%s, %s, %s) AND {scope} ORDER BY id, at, seq LIMIT %s"
        )
        after: tuple[str, float, int] = ("", float("-inf"), -1)
        while True:
            rows = self._fetch(sql, [*after, *params, _PAGE])
            yield from (entry_of_row(row) for row in rows)
            if len(rows) < _PAGE:
                return
            after = (rows[-1][0], rows[-1][2], rows[-1][6])

    def get_info(self) -> dict[str, Any] | None:
        """The store's settings (embedder name, dimension, fingerprint), or None."""
        rows = self._fetch(f"SELECT value FROM {self.schema}.meta WHERE name = 'info'", ())
        return json.loads(rows[0][0]) if rows else None

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (a JSON object) in the ``meta`` table."""
        with self._transaction() as cur:
            self._set_meta(cur, "info", json.dumps(info))

    def close(self) -> None:
        """Close the pool made here (a pool passed in stays open); closing twice does nothing.

        Afterwards every method raises :class:`~memvault.errors.StoreClosedError`.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None and self._own_pool:
            with contextlib.suppress(Exception):
                pool.close()


def _address(conninfo: str) -> str:
    """Where a connection string points, for messages (never the password)."""
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
