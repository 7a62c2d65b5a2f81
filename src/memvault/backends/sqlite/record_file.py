"""The record file: one SQLite connection, its transactions, and every operation on the file.

:class:`RecordFile` holds the connection (WAL journal) under a lock, turns SQLite's errors into
memvault's, and runs each operation in the transaction it needs. Writes and reads of records
and their history are here; the SQL of the other parts lives in their modules: the tables and
migrations (:mod:`~memvault.backends.sqlite.schema`), the rows of a record
(:mod:`~memvault.backends.sqlite.rows`), the outbox and quarantine
(:mod:`~memvault.backends.sqlite.outbox`), the exact and BM25 rankings
(:mod:`~memvault.backends.sqlite.search`), the rebuild (:mod:`~memvault.backends.sqlite.rebuild`).

Every write is one SQLite transaction (``BEGIN IMMEDIATE``): records, FTS rows, namespace
counts, outbox rows and history rows land together or not at all, across threads, processes
and crashes. Reading the version a write replaces happens inside that transaction, so two
writers of one key never interleave. See ``docs/architecture.md``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from memvault.backends.sql import (
    RECORD_COLUMNS,
    history_pages,
    history_row,
    live_under,
    record_of_row,
    under,
)
from memvault.backends.sqlite import meta, outbox, rebuild, rows, schema, search
from memvault.compare_and_set import check_expected, check_expected_deletes
from memvault.errors import MemvaultError, StoreBusyError, StoreClosedError, StoreDamagedError
from memvault.filters import PYTHON, compile_filter
from memvault.history import entries_of_delete, entries_of_erase, entries_of_upsert
from memvault.lexical import query_terms
from memvault.model import (
    Change,
    Clauses,
    HistoryEntry,
    Namespace,
    Ranked,
    Record,
    Validity,
    record_id,
    unit_vectors,
)

_CHUNK = 500
"""Ids one ``SELECT ... WHERE id IN (...)`` asks for."""
_PAGE = 2000
"""Rows a scan reads at a time, releasing the connection between pages."""
_BULK_CACHE = 10_000
"""Records from which a write's transaction runs with :data:`_BULK_CACHE_KIB` of page cache."""
_BULK_CACHE_KIB = 131_072
"""SQLite page cache (KiB) of a bulk write's transaction, then back to the default: with the
default 2 MiB the indexes of 100,000 new rows spill to the WAL mid-transaction, which held the
write lock 9.7 s where 128 MiB held it 6.1 s (on 2 busy cores)."""
BUSY_TIMEOUT = 60.0
"""Seconds a write waits for another process's write to the same record file before
:class:`~memvault.errors.StoreBusyError`."""


class RecordFile:
    """The SQLite system of record of a local store (see the package docstring).

    Thread-safe: one connection, used under a lock. Any number of processes may open one
    file: SQLite serialises their writes (each waits up to :data:`BUSY_TIMEOUT`), and every
    read sees every write committed before it.

    Args:
        path: The SQLite file (created if missing), or ``None`` for a record file in memory.

    Raises:
        StoreDamagedError: If the file is not a readable memvault record file (not SQLite,
            truncated, corrupt, a folder, or tables of another schema). The caller may move it
            aside and rebuild (:class:`~memvault.backends.local.LocalBackend` does).
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self.closed = False
        try:
            self._db = sqlite3.connect(
                str(self.path) if self.path is not None else ":memory:",
                check_same_thread=False,
                isolation_level=None,
                timeout=BUSY_TIMEOUT,
            )
        except sqlite3.Error as error:
            raise StoreDamagedError(f"cannot open the record file {self.path}: {error}") from error
        try:
            with self._use():
                self._open()
        except MemvaultError:  # damaged, or a newer memvault's (StoreVersionError)
            self._db.close()
            raise

    def _open(self) -> None:
        if self.path is not None:
            problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {problem}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
        with self._transaction():
            schema.create(self._db)
        schema.check(self._db)

    @contextlib.contextmanager
    def _use(self) -> Iterator[None]:
        """Hold the connection; SQLite's errors leave as memvault's."""
        with self._lock:
            if self.closed:
                raise StoreClosedError("the store was closed; open a new MemoryStore")
            try:
                yield
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    raise StoreBusyError(
                        f"the record file {self.path} stayed locked by another process's write "
                        f"for {BUSY_TIMEOUT:.0f} s; retry, or find the process that holds it"
                    ) from error
                raise StoreDamagedError(self._damage(error)) from error
            except sqlite3.Error as error:
                raise StoreDamagedError(self._damage(error)) from error

    def _damage(self, error: Exception) -> str:
        return (
            f"the record file {self.path} cannot be used ({error}); close every process using "
            "the store and open it again: a damaged record file is moved aside and rebuilt from "
            "the vector index"
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    @contextlib.contextmanager
    def _cache(self, size: int) -> Iterator[None]:
        """A page cache of :data:`_BULK_CACHE_KIB` for a write of ``size`` records, if large."""
        if size < _BULK_CACHE:
            yield
            return
        default = self._db.execute("PRAGMA cache_size").fetchone()[0]
        self._db.execute(f"PRAGMA cache_size = -{_BULK_CACHE_KIB}")
        try:
            yield
        finally:
            self._db.execute(f"PRAGMA cache_size = {int(default)}")

    # -- settings and state ---------------------------------------------------------------

    def built(self) -> bool:
        """Whether the file was filled (created empty for a new store, or rebuilt)."""
        with self._use():
            return meta.read(self._db, "built") is not None

    def mark_built(self, generation: int = 0) -> None:
        """Record that the file holds the store's records, at index ``generation``."""
        with self._use(), self._transaction():
            meta.write(self._db, "built", "1")
            meta.write(self._db, "schema", str(schema.SCHEMA_VERSION))
            meta.write(self._db, "generation", str(generation))

    def info(self) -> dict[str, Any] | None:
        """The store's settings (see :meth:`set_info`), or None."""
        with self._use():
            raw = meta.read(self._db, "info")
        return None if raw is None else json.loads(raw)

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (a JSON object)."""
        with self._use(), self._transaction():
            meta.write(self._db, "info", json.dumps(info))

    def generation(self) -> int:
        """The vector index generation: bumped each time an outbox batch is applied."""
        with self._use():
            return int(meta.read(self._db, "generation") or 0)

    def applied_generation(self) -> int:
        """The newest generation applied to the index, or being applied (:meth:`begin_apply`)."""
        with self._use():
            applying = meta.read(self._db, "applying")
            return max(int(meta.read(self._db, "generation") or 0), int(applying or 0))

    def applying(self) -> bool:
        """Whether a batch was being applied to the index when its writer stopped.

        That is, :meth:`begin_apply` without :meth:`mark_applied`.
        """
        with self._use():
            return meta.read(self._db, "applying") is not None

    def begin_apply(self, generation: int) -> None:
        """Record that an outbox batch is being applied to the index as ``generation``.

        So a crash before :meth:`mark_applied` does not make this file look older than the index.
        """
        with self._use(), self._transaction():
            meta.write(self._db, "applying", str(generation))

    def erase_pending(self) -> bool:
        """Whether an erase is still to be finished in the vector index (meta ``erase``)."""
        with self._use():
            return meta.read(self._db, "erase") is not None

    def set_erase_pending(self, pending: bool) -> None:
        """Note that an erase is to be finished in the vector index, or that it was.

        Args:
            pending: ``True`` before an erase, ``False`` once the index holds no copy of
                what was erased.
        """
        with self._use(), self._transaction():
            if pending:
                meta.write(self._db, "erase", "1")
            else:
                self._db.execute("DELETE FROM meta WHERE name = 'erase'")

    def index_stamp(self) -> dict[str, Any] | None:
        """What the vector index held when last read, with the state of its files, or None.

        See :meth:`set_index_stamp`.
        """
        with self._use():
            raw = meta.read(self._db, "index_stamp")
        return None if raw is None else json.loads(raw)

    def set_index_stamp(self, stamp: dict[str, Any]) -> None:
        """Record what the vector index held when last read (a JSON object).

        Args:
            stamp: ``files`` (:meth:`~memvault.backends.base.VectorIndex.files_stamp`),
                ``count`` and ``generation``, as
                :class:`~memvault.backends.local.LocalBackend` reads them.
        """
        with self._use(), self._transaction():
            meta.write(self._db, "index_stamp", json.dumps(stamp))

    def total(self) -> int:
        """How many records the file holds, expired ones included."""
        with self._use():
            return self._db.execute("SELECT count(*) FROM items").fetchone()[0]

    # -- writes ---------------------------------------------------------------------------

    def upsert(
        self, records: Sequence[Record], vectors: np.ndarray, *, now: float, change: Change
    ) -> list[Record]:
        """Write records and their history in one transaction.

        A live replaced version lends its ``created_at``; history entries are those of
        :func:`~memvault.history.entries_of_upsert` and the imported entries not kept yet.
        ``change.expected`` is checked against each version read, inside the transaction
        (:func:`~memvault.compare_and_set.check_expected`).

        The transaction holds SQLite's write lock, which every other writer of the file, in
        any process, waits for; so what can be made without it is made before it: the
        versions replaced are read, and the rows and history entries made from them, first
        (:class:`_Plan`). The transaction reads those versions again and makes them anew only
        if another writer changed one meanwhile, then writes the rows in a few statements.
        A batch of 30,000 new records holds the lock about 0.6 s
        (``bench/bulk_writers.py``). It stays all or nothing at any size and across a crash.

        Args:
            records: Distinct ids.
            vectors: Unit-length float32 embeddings, shape ``(len(records), dim)``.
            now: Unix seconds; a replaced version live then lends its ``created_at``.
            change: The write's source and kind, and imported history.

        Returns:
            The records as stored.

        Raises:
            ConflictError: Where a version read is not the one ``change.expected`` names;
                the transaction is rolled back, nothing is written.
        """
        ids = [r.id for r in records]
        with self._use():
            seen = rows.versions(self._db, ids)
        plan = _Plan(records, vectors, seen, now=now, change=change)
        with self._use(), self._cache(len(records)), self._transaction():
            found = rows.versions(self._db, ids)
            if found != seen:  # another writer wrote one of these keys meanwhile
                plan = _Plan(records, vectors, found, now=now, change=change)
            check_expected(records, plan.previous, change, now=now)  # a raise rolls it all back
            seq = outbox.next_seq(self._db)
            rows.remove(self._db, [row[0] for row in found.values()])
            rows.insert_prepared(self._db, plan.prepared)
            outbox.queue(self._db, ids, seq)
            rows.recount(self._db, {row[1] for row in found.values()} | plan.namespaces)
            keys = {(e.namespace, e.key) for e in change.imported_history}
            if keys:
                kept = [
                    e for ns, key in keys for e in rows.history_of(self._db, record_id(ns, key))
                ]
                entries = entries_of_upsert(
                    records, plan.previous, now=now, change=change, kept=kept
                )
                rows.append_history(self._db, entries)
            else:
                rows.append_history_rows(self._db, plan.history)
        return plan.stored

    def delete(
        self,
        ids: Sequence[str],
        *,
        now: float,
        source: str,
        expected: Sequence[tuple[str, float]] = (),
        erase: bool = False,
    ) -> None:
        """Delete records by id, with their history entries, in one transaction.

        Absent ids are ignored; see :func:`~memvault.history.entries_of_delete`.
        ``expected`` is checked against the versions read, inside the transaction
        (:func:`~memvault.compare_and_set.check_expected_deletes`).

        Args:
            ids: Record ids.
            now: Unix seconds; a record expired then gets ``"expire"``, else ``"delete"``.
            source: Who deletes.
            expected: ``(record id, updated_at)`` pairs: those records are deleted only
                in the version live at ``now`` with that ``updated_at``.
            erase: Also drop the values of the ids' history entries and record ``"erase"``
                (:func:`~memvault.history.entries_of_erase`); then merge the FTS5 index (so
                no segment keeps the deleted words) and rewrite the file (``VACUUM``, with
                ``secure_delete`` on: freed pages are zeroed), and empty the WAL.

        Raises:
            ConflictError: Where a record named in ``expected`` is absent, expired or of
                another ``updated_at``; the transaction is rolled back, nothing is deleted.
        """
        with self._use(), self._transaction():
            touched = set()
            present = []
            previous = []
            for item_id in ids:
                found = rows.stored(self._db, item_id)
                if found is not None:
                    rowid, ns, old = found
                    rows.remove(self._db, [rowid])
                    touched.add(ns)
                    present.append(item_id)
                    previous.append(old)
            if expected:  # a raise rolls it all back
                named = [i for i, _ in expected]
                versions = dict(zip(present, previous))
                check_expected_deletes(named, [versions.get(i) for i in named], expected, now=now)
            outbox.queue(self._db, present, outbox.next_seq(self._db))
            rows.recount(self._db, touched)
            if not erase:
                rows.append_history(self._db, entries_of_delete(previous, now=now, source=source))
            else:
                erased = rows.scrub_history(self._db, ids, present)
                rows.append_history(self._db, entries_of_erase(erased, now=now, source=source))
        if erase:
            with self._use():
                rows.compact(self._db)

    def rebuild(self, source: Iterable[tuple[Record, Sequence[float]]], *, generation: int) -> int:
        """Replace every record with those of ``source`` (e.g. a vector index's copies).

        The history is kept and brought in step with the records, with source ``"restore"``
        at the current time (:mod:`memvault.backends.sqlite.rebuild`).

        Args:
            source: ``(record, embedding)`` pairs.
            generation: The index generation the source is at.

        Returns:
            How many records were written.
        """
        with self._use(), self._transaction():
            rebuild.clear(self._db)
        count = 0
        pairs = iter(source)
        while batch := list(itertools.islice(pairs, rebuild.BATCH)):
            vectors = unit_vectors([vector for _, vector in batch])
            with self._use(), self._transaction():
                rebuild.append(self._db, [record for record, _ in batch], vectors)
            count += len(batch)
        with self._use(), self._transaction():
            rebuild.restore_history(self._db, time.time())
        self.mark_built(generation)
        return count

    # -- the outbox -----------------------------------------------------------------------

    def outbox(self, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` ``(id, seq)`` rows the vector index has not applied, oldest first."""
        with self._use():
            return outbox.pending(self._db, limit)

    def outbox_size(self) -> int:
        """How many ids wait in the outbox."""
        with self._use():
            return outbox.size(self._db)

    def outbox_holds(self, count: int) -> bool:
        """Whether at least ``count`` ids wait in the outbox (cheaper than counting them)."""
        with self._use():
            return outbox.holds(self._db, count)

    def unindexed(self, prefix: Namespace) -> set[str]:
        """Ids under ``prefix`` that the index lags on: in the outbox or in quarantine."""
        with self._use():
            return outbox.unindexed(self._db, prefix)

    def requeue_all(self, generation: int) -> int:
        """Put every record in the outbox, e.g. after the vector index was lost.

        Args:
            generation: The index's generation, which this file takes on.

        Returns:
            How many ids were queued.
        """
        with self._use(), self._transaction():
            return outbox.requeue_all(self._db, generation)

    def mark_applied(
        self, applied: Sequence[tuple[str, int]], refused: dict[str, str], *, generation: int
    ) -> None:
        """Clear outbox rows the index applied, quarantine what it refused, set ``generation``.

        A row re-queued by a later write (a higher ``seq``) stays.
        """
        with self._use(), self._transaction():
            outbox.mark_applied(self._db, applied, refused, generation=generation)

    def quarantined(self) -> dict[str, str]:
        """Ids the vector index refused, with the reason; they are still searched exactly."""
        with self._use():
            return outbox.quarantined(self._db)

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        found: dict[str, Record] = {}
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                cursor = self._db.execute(
                    f"SELECT {RECORD_COLUMNS} FROM items i "
                    f"WHERE i.id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                found.update((row[0], record_of_row(row)) for row in cursor)
        return [found.get(i) for i in ids]

    def live(self, ids: Sequence[str], *, now: float, valid: Validity) -> set[str]:
        """Which of ``ids`` are records live at ``now`` (Unix seconds) that ``valid`` admits."""
        found: set[str] = set()
        condition, params = live_under((), now, "?", valid)
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                cursor = self._db.execute(
                    f"SELECT i.id FROM items i WHERE i.id IN ({','.join('?' * len(chunk))}) "
                    f"AND {condition}",
                    [*chunk, *params],
                )
                found.update(row[0] for row in cursor)
        return found

    def vectors(self, ids: Sequence[str]) -> list[np.ndarray | None]:
        """Stored unit embeddings by id, shape ``(dim,)`` each, ``None`` where absent."""
        found: dict[str, np.ndarray | None] = {}
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                cursor = self._db.execute(
                    f"SELECT id, vector FROM items WHERE id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                found.update(
                    (i, None if v is None else np.frombuffer(v, dtype=np.float32))
                    for i, v in cursor
                )
        return [found.get(i) for i in ids]

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``, by id; expired ones too if ``now`` is None."""
        condition, params = live_under(prefix, now, "?")
        last = ""
        while True:
            with self._use():
                page = self._db.execute(
                    f"SELECT {RECORD_COLUMNS} FROM items i WHERE {condition} "
                    "AND i.id > ? ORDER BY i.id LIMIT ?",
                    [*params, last, _PAGE],
                ).fetchall()
            yield from (record_of_row(row) for row in page)
            if len(page) < _PAGE:
                return
            last = page[-1][0]

    def history(self, item_id: str) -> list[HistoryEntry]:
        """Every change to the record ``item_id``, oldest first (by ``at``, then as written)."""
        with self._use():
            return rows.history_of(self._db, item_id)

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, by record id, each key oldest first."""
        return history_pages(prefix, table="history", mark="?", fetch=self._fetch)

    def _fetch(self, sql: str, params: list[Any]) -> list[Any]:
        """The rows of one statement, read under the connection's lock."""
        with self._use():
            return self._db.execute(sql, params).fetchall()

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order.

        They come nearly sorted (by :func:`ns_key`) and decoded from one JSON array, so that
        listing 10,000 namespaces takes milliseconds.
        """
        scope, params = under(prefix, "ns", "?")
        with self._use():
            listed = self._db.execute(
                "SELECT '[' || group_concat(namespace, ',') || ']' FROM (SELECT namespace "
                "FROM namespaces WHERE (without_expiry > 0 OR expires_max > ?) "
                f"AND {scope} ORDER BY ns)",
                [now, *params],
            ).fetchone()[0]
        return [tuple(namespace) for namespace in json.loads(listed or "[]")]

    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        condition, params = live_under(prefix, now, "?")
        with self._use():
            return self._db.execute(
                f"SELECT count(*) FROM items i WHERE {condition}", params
            ).fetchone()[0]

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
        """Live records under ``prefix`` matching ``clauses``, newest ``updated_at`` first.

        Only those ``valid`` admits; ties go by id.
        """
        condition, params = live_under(prefix, now, "?", valid)
        sql = (
            f"SELECT {RECORD_COLUMNS} FROM items i WHERE {condition} ORDER BY i.updated DESC, i.id"
        )
        if not clauses:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        found: list[Record] = []
        wanted = limit + (offset if clauses else 0)
        holds = compile_filter(clauses, PYTHON)
        with self._use():
            for row in self._db.execute(sql, params):
                record = record_of_row(row)
                if clauses and not holds(record.value):
                    continue
                found.append(record)
                if len(found) >= wanted:
                    break
        return found[offset:] if clauses else found

    # -- searches -------------------------------------------------------------------------

    def nearest(
        self,
        prefix: Namespace,
        *,
        embedding: np.ndarray,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
        within: int | None,
        only: set[str] | None = None,
    ) -> Ranked | None:
        """Exact nearest-neighbour search from the embeddings kept here.

        The cost follows the size of the scope searched, not of the store: it reads the live
        records under ``prefix`` (by the ``ns`` index) and ranks their unit vectors by a dot
        product, which is the cosine similarity (:mod:`memvault.backends.sqlite.search`).

        Args:
            prefix: Namespace prefix; ``()`` covers all.
            embedding: The query embedding at unit length, shape ``(dim,)``.
            clauses: Filter clauses, applied before ranking.
            now: Unix seconds; expired records are left out.
            valid: Which records by their validity.
            limit: Most ids to return.
            within: Give up (return ``None``) if more than this many live records lie under
                ``prefix``; ``None``: no bound.
            only: Rank only these ids (e.g. those the vector index lags on).

        Returns:
            ``(id, cosine similarity)`` pairs, most similar first, ties by id; or ``None``
            (see ``within``).
        """
        with self._use():
            found = search.vector_rows(
                self._db,
                prefix,
                filtered=bool(clauses),
                now=now,
                valid=valid,
                within=within,
                only=only,
            )
        if found is None:
            return None
        return search.nearest(found, embedding, clauses=clauses, limit=limit)

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
        """Live records under ``prefix`` matching ``clauses``, best BM25 match first.

        FTS5 finds the live records under ``prefix`` holding any query word (a prefix is one
        word of the index, so only the scope's records are read); they are scored by
        :func:`memvault.lexical.bm25` with the statistics of the scope: how many records lie
        under ``prefix`` and their mean length (from the ``namespaces`` table, so records expired
        but not yet cleaned up count), and how many of the found records hold each query word.
        The cost follows the scope's matching records, not the store's size. Filters narrow the
        records returned, not the statistics.

        Args:
            query: Natural-language query (see :func:`memvault.lexical.query_terms`).
            prefix: Namespace prefix; ``()`` covers all.
            clauses: Filter clauses from :func:`memvault.filters.normalize_filter`.
            now: Unix seconds; records expired by then are left out.
            valid: Which records by their validity (the statistics count every record).
            limit: Most ids to return.

        Returns:
            ``(id, BM25 score > 0)`` pairs, best first, ties by id.
        """
        terms = query_terms(query)
        if not terms:
            return []
        with self._use():
            found, documents, words = search.lexical_rows(
                self._db, terms, prefix, filtered=bool(clauses), now=now, valid=valid
            )
        return search.lexical(
            found, terms, documents=documents, words=words, clauses=clauses, limit=limit
        )

    def close(self) -> None:
        """Close the SQLite connection; using the file afterwards raises StoreClosedError."""
        with self._lock:
            self.closed = True
            self._db.close()


class _Plan:
    """What an upsert writes, made from the versions it replaces, before its transaction.

    Args:
        records: The records to write, distinct ids.
        vectors: Their unit embeddings, shape ``(len(records), dim)``.
        found: The versions stored, as read (:func:`~memvault.backends.sqlite.rows.versions`).
        now: Unix seconds of the write.
        change: Its source and kind; the history is made here unless it imports history
            (which is read inside the transaction).

    Attributes:
        previous: The version each record replaces, ``None`` where none.
        stored: The records as stored (a live replaced version lends its ``created_at``).
        prepared: Their rows (:func:`~memvault.backends.sqlite.rows.prepare`).
        namespaces: Their namespace keys.
        history: The history rows of :func:`~memvault.history.entries_of_upsert`.
    """

    def __init__(
        self,
        records: Sequence[Record],
        vectors: np.ndarray,
        found: dict[str, tuple[Any, ...]],
        *,
        now: float,
        change: Change,
    ) -> None:
        self.previous = [record_of_row(found[r.id][2:]) if r.id in found else None for r in records]
        self.stored = [
            replace(r, created_at=old.created_at) if old is not None and old.live(now) else r
            for r, old in zip(records, self.previous)
        ]
        self.prepared = [rows.prepare(r, v) for r, v in zip(self.stored, vectors)]
        self.namespaces = {p.items[1] for p in self.prepared}
        self.history = (
            []
            if change.imported_history
            else [
                history_row(e)
                for e in entries_of_upsert(records, self.previous, now=now, change=change)
            ]
        )


class _Transaction:
    """``with`` block around one SQLite transaction: committed on success, else rolled back."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        # IMMEDIATE takes the write lock up front, so a second process waits for it (up to
        # the connection's timeout) instead of failing when a read would upgrade to a write.
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type | None, *rest: object) -> None:
        if kind is None:
            self._db.execute("COMMIT")
        elif self._db.in_transaction:
            self._db.execute("ROLLBACK")
