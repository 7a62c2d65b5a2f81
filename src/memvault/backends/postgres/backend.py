"""The class :class:`PostgresBackend`: a store's backend on one PostgreSQL database.

It opens the store's schema (:mod:`~memvault.backends.postgres.schema`) on pooled connections
(:mod:`~memvault.backends.postgres.connections`), writes through
:mod:`~memvault.backends.postgres.writes`, and searches with the statements of
:mod:`~memvault.backends.postgres.statements`, whose rows
:mod:`~memvault.backends.postgres.rankings` reads. See :mod:`memvault.backends.postgres`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from memvault.backends.base import Backend
from memvault.backends.postgres import schema as tables
from memvault.backends.postgres import writes
from memvault.backends.postgres.connections import (
    Connections,
    address_of,
    check_dsn,
    open_pool,
)
from memvault.backends.postgres.dialect import filter_sql
from memvault.backends.postgres.rankings import (
    by_score,
    cut,
    ranking,
    record_of_carried,
    rows_carrying_records,
)
from memvault.backends.postgres.schema import DEFAULT_SCHEMA, check_schema_name
from memvault.backends.postgres.statements import EXACT_SCOPE, SearchStatements, scope_of
from memvault.backends.postgres.writes import LOCK_TIMEOUT
from memvault.backends.sql import (
    HISTORY_COLUMNS,
    RECORD_COLUMNS,
    entry_of_row,
    history_pages,
    live_under,
    record_of_row,
)
from memvault.errors import EmbedderMismatchError, InvalidArgumentError, StoreBusyError
from memvault.fusion import FUSION_DEPTH, hybrid_page
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
    Validity,
    Vector,
    Vectors,
    namespace_of_key,
    record_id,
    unit_vectors,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresBackend"]

_INSTALL = "pip install 'memvault[postgres]'"
_RACES = 5
"""Times a write without advisory locks (:data:`~memvault.backends.postgres.writes.BULK_KEYS`)
is run again after another writer inserted one of its keys, before :class:`StoreBusyError`."""
_PAGE = 2_000
"""Records a scan reads in one statement."""


class PostgresBackend(Backend):
    """Memories in a PostgreSQL database shared by any number of processes and machines.

    Records, embeddings (pgvector, HNSW, cosine), a full-text index and the history live in
    one schema and are written in one transaction per write (see :mod:`memvault.backends.postgres`
    and ``docs/architecture.md``). Needs the extra: ``pip install 'memvault[postgres]'`` (psycopg
    3, its pool, pgvector's adapter), and a server with the ``vector`` extension (created here
    if the user may; else run ``CREATE EXTENSION vector`` once as its owner).

    An erase (``delete(..., erase=True)``) leaves no text in any table: a dump of the
    database (``pg_dump``) holds none of it. It cannot reach what the server keeps beyond
    its tables' live rows: the old row versions in the table, TOAST and index files (the
    GIN index's words among them) until ``VACUUM`` frees their space and later writes reuse
    it (``VACUUM FULL`` rewrites the files at once), the write-ahead log until it is
    recycled (and archived WAL, replicas' copies and backups until they are replaced).

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
            GIN index (see :data:`~memvault.backends.postgres.statements.EXACT_SCOPE`).
        max_connections: Most connections of the pool made here.
        timeout: Seconds to wait for a connection (server down, pool exhausted) before
            :class:`~memvault.errors.BackendUnavailableError`.
        lock_timeout: Seconds a write waits for another writer of one of its keys before
            :class:`~memvault.errors.StoreBusyError` (see
            :data:`~memvault.backends.postgres.writes.LOCK_TIMEOUT`).
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
    returns_embeddings = True

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
            import pgvector.psycopg  # noqa: F401 - used per connection (Connections)
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as error:
            raise ImportError(
                f"PostgresBackend needs psycopg 3, psycopg-pool and pgvector ({error.name} is "
                f"missing): {_INSTALL}",
                name=error.name,
            ) from error
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
        self._statements = SearchStatements(schema, exact_scope)
        given = getattr(pool, "conninfo", "") if pool is not None else dsn
        conninfo = given if isinstance(given, str) else ""
        self.address = address_of(conninfo)
        own = pool is None
        if pool is None:
            check_dsn(conninfo)
            pool = open_pool(
                conninfo,
                address=self.address,
                schema=schema,
                max_connections=max_connections,
                timeout=timeout,
            )
        self._connections = Connections(
            pool, own=own, schema=schema, address=self.address, timeout=timeout
        )
        try:
            with self._connections.transaction() as cur:
                self._dim = tables.open_schema(cur, schema, address=self.address, create=create)
            self._connections.vector_type_exists = True
        except BaseException:
            self.close()
            raise

    def _check_dim(self, cur: psycopg.Cursor[Any], dim: int) -> None:
        """Fix the embedding dimension at the first write (typed column, HNSW index).

        Raises:
            EmbedderMismatchError: If the store holds embeddings of another dimension.
        """
        if self._dim is None:
            self._dim = tables.fix_dim(cur, self.schema, dim)
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
        under those locks (:func:`memvault.backends.postgres.writes.upsert`). A write of
        more than :data:`~memvault.backends.postgres.writes.BULK_KEYS` keys locks the rows it
        replaces instead, and runs again (up to :data:`_RACES` times) where another writer
        inserted a key it had found absent: writers of other keys never wait for it. See
        :meth:`Backend.upsert <memvault.backends.base.Backend.upsert>`.

        Raises:
            ConflictError: Where a version read is not the one ``change.expected`` names;
                nothing is written.
            EmbedderMismatchError: If the embeddings' dimension is not the store's.
            BackendUnavailableError, BackendError, StoreBusyError: From the server;
                ``StoreBusyError`` also after :data:`_RACES` runs that met other writers.
        """
        if not records and not change.imported_history:
            return []
        vectors = unit_vectors(embeddings) if records else np.zeros((0, 0), dtype=np.float32)
        attempt = 0
        while True:
            attempt += 1
            try:
                with self._connections.transaction() as cur:
                    writes.wait_for(cur, self.lock_timeout)
                    if records:
                        self._check_dim(cur, int(vectors.shape[1]))
                    return writes.upsert(cur, self.schema, records, vectors, now=now, change=change)
            except writes.Raced as raced:
                if attempt == _RACES:
                    raise StoreBusyError(
                        f"a write of {len(records)} records in schema {self.schema!r} met "
                        f"other writers of its keys {_RACES} times ({raced}); retry it"
                    ) from raced

    def delete(
        self,
        ids: Sequence[str],
        *,
        now: float,
        source: str,
        expected: Sequence[tuple[str, float]] = (),
        erase: bool = False,
    ) -> None:
        """Delete records by id and record it, in one transaction; absent ids are ignored.

        Each key is locked (advisory, transaction-level) before its version is deleted, and
        ``expected`` is checked against the versions deleted, under those locks
        (:func:`memvault.backends.postgres.writes.delete`). With ``erase``, the same
        transaction empties the values of the ids' history and records ``"erase"``; what
        the server keeps beyond its tables is in the class docstring. See
        :meth:`Backend.delete <memvault.backends.base.Backend.delete>`.

        Raises:
            ConflictError: Where a record named in ``expected`` is absent, expired or of
                another ``updated_at``; the transaction rolls back, nothing is deleted.
            BackendUnavailableError, BackendError, StoreBusyError: From the server.
        """
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return
        with self._connections.transaction() as cur:
            writes.wait_for(cur, self.lock_timeout)
            writes.delete(
                cur,
                self.schema,
                distinct,
                now=now,
                source=source,
                expected=expected,
                erase=erase,
            )

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent; one per id given."""
        if not ids:
            self._connections.live_pool()
            return []
        rows = self._connections.fetch(  # ids in binary: no quoting of each one
            f"SELECT {RECORD_COLUMNS} FROM {self.schema}.items i WHERE i.id = ANY(%b)",
            (list(dict.fromkeys(ids)),),
        )
        found = {row[0]: record_of_row(row) for row in rows}
        return [found.get(i) for i in ids]

    def embeddings(self, ids: Sequence[str]) -> list[Vector | None]:
        """The unit embedding of each id, ``None`` where absent; one per id given."""
        if not ids:
            self._connections.live_pool()
            return []
        rows = self._connections.fetch(
            f"SELECT i.id, i.embedding FROM {self.schema}.items i WHERE i.id = ANY(%b)",
            (list(dict.fromkeys(ids)),),
        )
        # pgvector's adapter reads a vector as a numpy array (pgvector 0.3) or as its Vector
        # type (0.4 on), which numpy reads through to_numpy
        found = {
            i: None
            if v is None
            else np.asarray(v if isinstance(v, np.ndarray) else v.to_numpy(), np.float32)
            for i, v in rows
        }
        return [found.get(i) for i in ids]

    def recent(
        self,
        prefix: Namespace,
        *,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
        offset: int = 0,
    ) -> list[Record]:
        """Live matching records ``valid`` admits, most recently updated first, ties by id."""
        scope, params = scope_of(prefix, now, valid)
        where, more = filter_sql(clauses)
        rows = self._connections.fetch(
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
            parts = self._statements.bm25_parts(
                r.query, r.prefix, r.clauses, r.now, r.valid, page_end, page_end
            )
            if parts is None:
                self._connections.live_pool()
                return []
            ctes, cte_params, select, select_params = parts
            rows = self._connections.fetch(
                f"WITH {ctes} SELECT 2, b.* FROM ({select}) AS b", [*cte_params, *select_params]
            )
            ranked = by_score([(row[1], row[2]) for row in rows])
            return list(self._with_carried(ranked[r.offset :], rows))
        assert r.embedding is not None
        embedding = r.embedding
        vector = unit_vectors([embedding])[0]
        rows = self._connections.fetch(
            *self._statements.hybrid(r, vector, FUSION_DEPTH, carry=2 * page_end)
        )
        lexical = by_score([(row[1], row[2]) for row in rows if row[0] == 2])
        dense = self._dense_ranking(rows, vector, r.prefix, r.clauses, r.now, r.valid, FUSION_DEPTH)
        dated: set[str] = set()
        if r.periods:  # the items of the two tops only, as the default search dates them
            top_ids = {i for i, _ in dense} | {i for i, _ in lexical}
            created = {row[1]: row[3] for row in rows if row[1] in top_ids}
            unread = [i for i in top_ids if i not in created]  # an HNSW ranking asked again
            created.update((x.id, x.created_at) for x in self.get(unread) if x is not None)
            dated = {i for i, at in created.items() if r.names_period_of(at)}

        def dense_below(n: int) -> Ranked:
            return self.dense(
                r.prefix, embedding=embedding, clauses=r.clauses, now=r.now, valid=r.valid, limit=n
            )

        top = (dense, lexical)
        page = hybrid_page(top, dense_below, offset=r.offset, limit=r.limit, dated=dated)
        return list(self._with_carried(page, rows))

    def _with_carried(self, ranked: Ranked, rows: Sequence[Sequence[Any]]) -> Found:
        """``ranked`` with each record: from the ``rows`` carrying it, else read by :meth:`get`.

        Records gone since their ranking are left out, as :func:`with_records` does.
        """
        carried = rows_carrying_records(rows)
        records = {i: record_of_carried(carried[i]) for i, _ in ranked if i in carried}
        missing = [item_id for item_id, _ in ranked if item_id not in records]
        records.update((x.id, x) for x in self.get(missing) if x is not None)
        return [(records[i], score) for i, score in ranked if i in records]

    def dense(
        self,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> Ranked:
        """The ``limit`` live matching records ``valid`` admits nearest to ``embedding``.

        By cosine similarity.

        Exact (ties by id, also at the cut) for scopes of up to ``exact_scope`` live records;
        a larger scope asks the HNSW index with pgvector's iterative scan (approximate). One
        round trip (:meth:`_rankings`), two where the HNSW ranking ties at the cut.

        Returns:
            ``(id, cosine similarity)`` pairs, most similar first, ties by id.
        """
        return self._rankings(None, prefix, embedding, clauses, now, valid, limit)[0]

    def dense_records(
        self,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> Found:
        """:meth:`dense` with each record, read by the ranking's statement: one round trip.

        Three where the HNSW ranking ties at the cut (:meth:`_index_ranking`, :meth:`get`).

        Returns:
            ``(record, cosine similarity)`` pairs, most similar first, ties by id.
        """
        vector = unit_vectors([embedding])[0]
        size, nearest, params = self._statements.nearest(
            vector, prefix, clauses, now, valid, limit, carry=limit
        )
        rows = self._connections.fetch(f"WITH {size} {nearest}", params)
        ranked = self._dense_ranking(rows, vector, prefix, clauses, now, valid, limit)
        return self._with_carried(ranked, rows)

    def lexical(
        self,
        query: str,
        prefix: Namespace,
        *,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> Ranked:
        """Live matching records holding any of the query's words, by BM25 over the scope.

        Filters and ``valid`` apply after the statistics are read (see the module
        docstring), so they narrow the records returned, not the word rarities that rank
        them.

        Returns:
            ``(id, BM25 score > 0)`` pairs, best first, ties by id.
        """
        statement = self._statements.bm25(query, prefix, clauses, now, valid, limit)
        if statement is None:
            self._connections.live_pool()
            return []
        return ranking(self._connections.fetch(*statement))

    def both_rankings(
        self,
        query: str,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> tuple[Ranked, Ranked]:
        """:meth:`dense` and :meth:`lexical` of one search, in one SQL statement.

        One round trip (:meth:`_rankings`), two where the HNSW ranking ties at the cut.

        Returns:
            ``(dense, lexical)`` as :meth:`dense` and :meth:`lexical` return them.
        """
        return self._rankings(query, prefix, embedding, clauses, now, valid, limit)

    def _rankings(
        self,
        query: str | None,
        prefix: Namespace,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        valid: Validity,
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
        size, nearest, params = self._statements.nearest(vector, prefix, clauses, now, valid, limit)
        parts = [nearest]
        bm25 = (
            None
            if query is None
            else self._statements.bm25(query, prefix, clauses, now, valid, limit)
        )
        if bm25 is not None:
            parts.append(f"SELECT 2, b.* FROM ({bm25[0]}) AS b")
            params += bm25[1]
        rows = self._connections.fetch(f"WITH {size} {' UNION ALL '.join(parts)}", params)
        lexical = by_score([(item_id, score) for part, item_id, score in rows if part == 2])
        dense = self._dense_ranking(rows, vector, prefix, clauses, now, valid, limit)
        return dense, lexical

    def _dense_ranking(
        self,
        rows: Sequence[Sequence[Any]],
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> Ranked:
        """The dense ranking from rows that start with ``(part, id, score)``.

        As :meth:`SearchStatements.nearest
        <memvault.backends.postgres.statements.SearchStatements.nearest>` returns them; parts
        other than 0 and 1 are ignored. The exact ranking's, or the HNSW ranking's top
        ``limit`` where it does not tie at its cut; else :meth:`_index_ranking` asks for more.
        """
        exact = [(row[1], row[2]) for row in rows if row[0] == 0]
        index = [(row[1], row[2]) for row in rows if row[0] == 1]
        dense = by_score(exact) or cut(by_score(index), limit, limit + 1)
        if dense is None:
            dense = self._index_ranking(vector, prefix, clauses, now, valid, limit, 2 * (limit + 1))
        return dense

    def _index_ranking(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
        wanted: int,
    ) -> Ranked:
        """The HNSW ranking's top ``limit``: ``wanted`` records asked for, then twice as many.

        Until every record tied with the last one kept is there, to be ordered by id.
        """
        while True:
            rows = self._connections.fetch(
                *self._statements.index_nearest(vector, prefix, clauses, now, valid, wanted)
            )
            complete = cut(by_score([(i, score) for i, _, score in rows]), limit, wanted)
            if complete is not None:
                return complete
            wanted *= 2

    # -- the statements of searches -------------------------------------------------------
    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        scope, params = live_under(prefix, now, "%s")
        ((count,),) = self._connections.fetch(
            f"SELECT count(*) FROM {self.schema}.items i WHERE {scope}", params
        )
        return int(count)

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order."""
        scope, params = live_under(prefix, now, "%s")
        rows = self._connections.fetch(
            f"SELECT DISTINCT i.ns FROM {self.schema}.items i WHERE {scope}", params
        )
        return [namespace_of_key(row[0]) for row in rows]

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``, by id; expired ones too if ``now`` is None."""
        self._connections.live_pool()
        return self._scan(prefix, now)

    def _scan(self, prefix: Namespace, now: float | None) -> Iterator[Record]:
        scope, params = live_under(prefix, now, "%s")
        last = ""
        while True:
            rows = self._connections.fetch(
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
        rows = self._connections.fetch(
            f"SELECT {HISTORY_COLUMNS} FROM {self.schema}.history WHERE id = %s ORDER BY at, seq",
            (record_id(namespace, key),),
        )
        return [entry_of_row(row) for row in rows]

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, by record id, each key oldest first."""
        self._connections.live_pool()
        return history_pages(
            prefix, table=f"{self.schema}.history", mark="%s", fetch=self._connections.fetch
        )

    def get_info(self) -> dict[str, Any] | None:
        """The store's settings (embedder name, dimension, fingerprint), or None."""
        rows = self._connections.fetch(
            f"SELECT value FROM {self.schema}.meta WHERE name = 'info'", ()
        )
        return json.loads(rows[0][0]) if rows else None

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (a JSON object) in the ``meta`` table."""
        with self._connections.transaction() as cur:
            tables.write_meta(cur, self.schema, "info", json.dumps(info))

    def close(self) -> None:
        """Close the pool made here (a pool passed in stays open); closing twice does nothing.

        Afterwards every method raises :class:`~memvault.errors.StoreClosedError`.
        """
        self._connections.close()
