"""The record file: a local store's system of record, on SQLite.

One SQLite database holds, per record: its id, namespace, key, value (JSON), times, its
embedding (float32, unit length), and its words for BM25 search (:mod:`memvault.lexical`: the
folded words with their counts, packed as 64-bit word digests and 32-bit counts so that a
search reads them in one numpy pass, and its length in words); an FTS5 index of
those words and of the record's namespace prefixes, which finds the records of a scope holding a
query word; a table of namespaces with their item counts and total length in words; an
**outbox** of the ids whose change the vector index has
not applied yet; a **quarantine** of ids the vector index refused; ``meta`` (the store's
settings and the index generation); and the **history** of every key (one row per change:
record id, time, event, source, value before and after as JSON), which outlives the records.

Every write is one SQLite transaction (``BEGIN IMMEDIATE``, WAL journal): records, FTS rows,
namespace counts, outbox rows and history rows land together or not at all, across threads,
processes and crashes. Reading the version a write replaces happens inside that transaction,
so two writers of one key never interleave. The ``history`` table came without a schema bump
(``CREATE TABLE IF NOT EXISTS``): a record file written before it opens as it is and starts
keeping history. Schema 3 added the words columns and made the FTS5 index hold folded words;
a schema-2 file is migrated in place when it is opened (:meth:`RecordFile.migrate`). See
``docs/architecture.md``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
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
    HISTORY_COLUMNS,
    RECORD_COLUMNS,
    entry_of_row,
    history_row,
    live_under,
    migrate,
    record_of_row,
    under,
)
from memvault.compare_and_set import check_expected
from memvault.errors import StoreBusyError, StoreClosedError, StoreDamagedError
from memvault.filters import PYTHON, compile_filter
from memvault.history import entries_of_delete, entries_of_upsert
from memvault.lexical import bm25, indexed_text, query_terms, terms_of
from memvault.model import (
    Change,
    Clauses,
    HistoryEntry,
    Namespace,
    Ranked,
    Record,
    ns_key,
    record_id,
    unit_vectors,
)

SCHEMA_VERSION = 3
_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ns TEXT NOT NULL,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    expires REAL,
    vector BLOB,
    length INTEGER NOT NULL DEFAULT 0,
    terms BLOB NOT NULL DEFAULT x''
);
CREATE INDEX IF NOT EXISTS items_by_ns ON items (ns);
CREATE INDEX IF NOT EXISTS items_by_recency ON items (updated DESC, id);
CREATE TABLE IF NOT EXISTS namespaces (
    ns TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    items INTEGER NOT NULL,
    lasting INTEGER NOT NULL,
    expires_max REAL,
    words INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS quarantine (id TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
DROP TABLE IF EXISTS pending;
CREATE TABLE IF NOT EXISTS history (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    ns TEXT NOT NULL,
    at REAL NOT NULL,
    event TEXT NOT NULL,
    source TEXT NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX IF NOT EXISTS history_by_id ON history (id, at, seq);
CREATE INDEX IF NOT EXISTS history_by_ns ON history (ns);
"""
# The FTS5 index of folded words (memvault.lexical.fold) and namespace prefix words; it only
# finds records (no bm25()), so each word is one token: '_' is a word character as in ``\w``.
_DOCS = """
CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(
    scope, body, tokenize = "unicode61 remove_diacritics 0 tokenchars '_'"
)
"""
_COLUMNS = {
    "items": {
        "rowid",
        "id",
        "ns",
        "namespace",
        "key",
        "value",
        "created",
        "updated",
        "expires",
        "vector",
        "length",
        "terms",
    },
    "namespaces": {"ns", "namespace", "items", "lasting", "expires_max", "words"},
    "outbox": {"id", "seq"},
    "quarantine": {"id", "reason"},
    "meta": {"name", "value"},
    "history": {"seq", "id", "ns", "at", "event", "source", "before", "after"},
}
_CHUNK = 500
BUSY_TIMEOUT = 60.0
"""Seconds a write waits for another process's write to the same record file before
:class:`~memvault.errors.StoreBusyError`."""


def _scope_token(prefix: Namespace) -> str:
    """One word naming a namespace prefix: ``ns`` and a BLAKE2b digest.

    Each record's ``scope`` column holds the word of every prefix of its namespace, so a search
    asks FTS5 for the prefix and the query words at once and ranks only the records in scope.
    """
    digest = hashlib.blake2b(ns_key(prefix).encode(), digest_size=10).hexdigest()
    return f"ns{digest}"


def _scope(namespace: Namespace) -> str:
    return " ".join(_scope_token(namespace[:depth]) for depth in range(1, len(namespace) + 1))


_TERM = np.dtype([("term", "<u8"), ("count", "<u4")])
"""One entry of a record's ``terms`` column: a folded word's 64-bit digest and its count."""


@functools.lru_cache(maxsize=2**16)
def _digest(term: str) -> int:
    """A folded word as an unsigned 64-bit integer (BLAKE2b; a collision is a 2**-64 event)."""
    return int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")


def _words(value: dict[str, Any]) -> tuple[int, bytes, str]:
    """A value's BM25 length, its ``terms`` column and its FTS5 body (its distinct words)."""
    counts, length = terms_of(indexed_text(value))
    packed = np.array([(_digest(t), n) for t, n in counts.items()], dtype=_TERM).tobytes()
    return length, packed, " ".join(counts)


def _frequencies(columns: Sequence[bytes], terms: Sequence[str]) -> np.ndarray:
    """How often each of ``terms`` occurs in each record, from the records' ``terms`` columns.

    Returns:
        Counts, shape ``(len(columns), len(terms))`` (``terms`` distinct).
    """
    entries = np.frombuffer(b"".join(columns), dtype=_TERM)
    sizes = [len(column) // _TERM.itemsize for column in columns]
    rows = np.repeat(np.arange(len(columns)), sizes)
    wanted = np.array([_digest(t) for t in terms], dtype=np.uint64)
    order = np.argsort(wanted)
    at = np.minimum(np.searchsorted(wanted[order], entries["term"]), len(terms) - 1)
    hit = wanted[order][at] == entries["term"]
    counts = np.zeros((len(columns), len(terms)))
    counts[rows[hit], order[at[hit]]] = entries["count"][hit]
    return counts


def _best(ids: Sequence[str], scores: np.ndarray, limit: int) -> Ranked:
    """The ``limit`` best of ``ids`` by ``scores`` (shape ``(len(ids),)``), ties by id.

    Ids scored ``-inf`` are left out.
    """
    candidates = np.flatnonzero(scores > -np.inf)
    if len(candidates) > limit:  # the top `limit`, and everything tied with the last of them
        bound = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
        candidates = candidates[scores[candidates] >= bound]
    order = sorted(candidates.tolist(), key=lambda i: (-scores[i], ids[i]))[:limit]
    return [(ids[i], float(scores[i])) for i in order]


class RecordFile:
    """The SQLite system of record of a local store (see the module docstring).

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
        except StoreDamagedError:
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
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            if self._columns("items") == _COLUMNS["items"] - {"length", "terms"}:
                migrate(2, {3: self._migrate_to_3}, SCHEMA_VERSION)
            self._db.execute(_DOCS)
        for table, wanted in _COLUMNS.items():
            columns = self._columns(table)
            if columns != wanted:
                raise sqlite3.DatabaseError(
                    f"table {table} has columns {sorted(columns)}, not memvault's"
                )
        schema = self._meta("schema")
        if schema is not None and schema != str(SCHEMA_VERSION):
            raise sqlite3.DatabaseError(f"schema version {schema}, not {SCHEMA_VERSION}")

    def _columns(self, table: str) -> set[str]:
        columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
        return columns | {"rowid"} if table == "items" else columns

    def _migrate_to_3(self) -> None:
        """Bring a schema-2 file to schema 3, inside the opening transaction.

        Adds each record's words (``length``, ``terms``) and each namespace's ``words``, and
        rebuilds the FTS5 index on folded words; records, history and the outbox are kept.
        """
        self._db.execute("ALTER TABLE items ADD COLUMN length INTEGER NOT NULL DEFAULT 0")
        self._db.execute("ALTER TABLE items ADD COLUMN terms BLOB NOT NULL DEFAULT x''")
        self._db.execute("ALTER TABLE namespaces ADD COLUMN words INTEGER NOT NULL DEFAULT 0")
        self._db.execute("DROP TABLE IF EXISTS docs")
        self._db.execute(_DOCS)
        last = 0
        while True:
            rows = self._db.execute(
                "SELECT rowid, namespace, value FROM items WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, _CHUNK),
            ).fetchall()
            for rowid, namespace, value in rows:
                length, terms, body = _words(json.loads(value))
                self._db.execute(
                    "UPDATE items SET length = ?, terms = ? WHERE rowid = ?",
                    (length, terms, rowid),
                )
                self._db.execute(
                    "INSERT INTO docs (rowid, scope, body) VALUES (?, ?, ?)",
                    (rowid, _scope(tuple(json.loads(namespace))), body),
                )
            if len(rows) < _CHUNK:
                break
            last = rows[-1][0]
        self._recount(row[0] for row in self._db.execute("SELECT ns FROM namespaces").fetchall())
        if self._meta("schema") is not None:
            self._set_meta("schema", str(SCHEMA_VERSION))

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

    def _meta(self, name: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, name: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))

    # -- settings and state ---------------------------------------------------------------

    def built(self) -> bool:
        """Whether the file was filled (created empty for a new store, or rebuilt)."""
        with self._use():
            return self._meta("built") is not None

    def mark_built(self, generation: int = 0) -> None:
        """Record that the file holds the store's records, at index ``generation``."""
        with self._use(), self._transaction():
            self._set_meta("built", "1")
            self._set_meta("schema", str(SCHEMA_VERSION))
            self._set_meta("generation", str(generation))

    def info(self) -> dict[str, Any] | None:
        """The store's settings (see :meth:`set_info`), or None."""
        with self._use():
            raw = self._meta("info")
        return None if raw is None else json.loads(raw)

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (a JSON object)."""
        with self._use(), self._transaction():
            self._set_meta("info", json.dumps(info))

    def generation(self) -> int:
        """The vector index generation: bumped each time an outbox batch is applied."""
        with self._use():
            return int(self._meta("generation") or 0)

    def applied_generation(self) -> int:
        """The newest generation applied to the index, or being applied (:meth:`begin_apply`)."""
        with self._use():
            return max(int(self._meta("generation") or 0), int(self._meta("applying") or 0))

    def applying(self) -> bool:
        """Whether a batch was being applied to the index when its writer stopped.

        That is, :meth:`begin_apply` without :meth:`mark_applied`.
        """
        with self._use():
            return self._meta("applying") is not None

    def begin_apply(self, generation: int) -> None:
        """Record that an outbox batch is being applied to the index as ``generation``.

        So a crash before :meth:`mark_applied` does not make this file look older than the index.
        """
        with self._use(), self._transaction():
            self._set_meta("applying", str(generation))

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
        stored = []
        with self._use(), self._transaction():
            seq = self._next_seq()
            touched: set[str] = set()
            previous: list[Record | None] = []
            for record, vector in zip(records, vectors):
                old_row = self._db.execute(
                    f"SELECT i.rowid, i.ns, {RECORD_COLUMNS} FROM items i WHERE i.id = ?",
                    (record.id,),
                ).fetchone()
                old = None if old_row is None else record_of_row(old_row[2:])
                previous.append(old)
                if old_row is not None:
                    assert old is not None
                    if old.live(now):
                        record = replace(record, created_at=old.created_at)
                    self._db.execute("DELETE FROM docs WHERE rowid = ?", (old_row[0],))
                    self._db.execute("DELETE FROM items WHERE rowid = ?", (old_row[0],))
                    touched.add(old_row[1])
                self._insert(record, vector)
                touched.add(ns_key(record.namespace))
                stored.append(record)
            check_expected(records, previous, change, now=now)  # a raise rolls it all back
            self._queue([r.id for r in records], seq)
            self._recount(touched)
            keys = {(e.namespace, e.key) for e in change.imported_history}
            kept = [e for ns, key in keys for e in self._history(record_id(ns, key))]
            self._append_history(
                entries_of_upsert(records, previous, now=now, change=change, kept=kept)
            )
        return stored

    def _append_history(self, entries: Iterable[HistoryEntry]) -> None:
        self._db.executemany(
            "INSERT INTO history (id, ns, at, event, source, before, after) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [history_row(e) for e in entries],
        )

    def _history(self, item_id: str) -> list[HistoryEntry]:
        rows = self._db.execute(
            f"SELECT {HISTORY_COLUMNS} FROM history WHERE id = ? ORDER BY at, seq", (item_id,)
        )
        return [entry_of_row(row) for row in rows]

    def _insert(self, record: Record, vector: np.ndarray | None) -> None:
        length, terms, body = _words(record.value)
        cursor = self._db.execute(
            "INSERT INTO items (id, ns, namespace, key, value, created, updated, expires, "
            "vector, length, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.id,
                ns_key(record.namespace),
                json.dumps(list(record.namespace), ensure_ascii=False),
                record.key,
                json.dumps(record.value, ensure_ascii=False),
                record.created_at,
                record.updated_at,
                record.expires_at,
                None if vector is None else np.asarray(vector, dtype=np.float32).tobytes(),
                length,
                terms,
            ),
        )
        self._db.execute(
            "INSERT INTO docs (rowid, scope, body) VALUES (?, ?, ?)",
            (cursor.lastrowid, _scope(record.namespace), body),
        )

    def delete(self, ids: Sequence[str], *, now: float, source: str) -> None:
        """Delete records by id, with their history entries, in one transaction.

        Absent ids are ignored; see :func:`~memvault.history.entries_of_delete`.

        Args:
            ids: Record ids.
            now: Unix seconds; a record expired then gets ``"expire"``, else ``"delete"``.
            source: Who deletes.
        """
        with self._use(), self._transaction():
            touched = set()
            present = []
            previous = []
            for item_id in ids:
                row = self._db.execute(
                    f"SELECT i.rowid, i.ns, {RECORD_COLUMNS} FROM items i WHERE i.id = ?",
                    (item_id,),
                ).fetchone()
                if row is not None:
                    self._db.execute("DELETE FROM docs WHERE rowid = ?", row[:1])
                    self._db.execute("DELETE FROM items WHERE rowid = ?", row[:1])
                    touched.add(row[1])
                    present.append(item_id)
                    previous.append(record_of_row(row[2:]))
            self._queue(present, self._next_seq())
            self._recount(touched)
            self._append_history(entries_of_delete(previous, now=now, source=source))

    def _next_seq(self) -> int:
        seq = int(self._meta("seq") or 0) + 1
        self._set_meta("seq", str(seq))
        return seq

    def _queue(self, ids: Sequence[str], seq: int) -> None:
        """Put ids in the outbox for the vector index (and out of quarantine)."""
        self._db.executemany("INSERT OR REPLACE INTO outbox VALUES (?, ?)", [(i, seq) for i in ids])
        self._db.executemany("DELETE FROM quarantine WHERE id = ?", [(i,) for i in ids])

    def _recount(self, ns_keys: Iterable[str]) -> None:
        """Bring the ``namespaces`` rows of ``ns_keys`` in step with ``items``.

        Each row counts a namespace's records, those that never expire (``lasting``), the
        latest expiry of the others and their length in words, so :meth:`namespaces` and the
        BM25 statistics of :meth:`lexical` come from one small table.
        """
        for ns in ns_keys:
            self._db.execute("DELETE FROM namespaces WHERE ns = ?", (ns,))
            self._db.execute(
                "INSERT INTO namespaces SELECT ns, namespace, count(*), "
                "sum(expires IS NULL), max(expires), sum(length) FROM items WHERE ns = ? "
                "GROUP BY ns",
                (ns,),
            )

    def rebuild(self, source: Iterable[tuple[Record, Sequence[float]]], *, generation: int) -> int:
        """Replace every record with those of ``source`` (e.g. a vector index's copies).

        The history this file holds is kept (none if the file was started anew) and brought in
        step with the records, with source ``"restore"`` at the current time: ``"add"`` for a
        record whose key has no history or whose last entry removed it, ``"update"`` for one
        whose last entry holds another value, ``"delete"`` for a key whose last entry left it
        in place but that ``source`` lacks. The changes between are lost with the file.

        Args:
            source: ``(record, embedding)`` pairs.
            generation: The index generation the source is at.

        Returns:
            How many records were written.
        """
        with self._use(), self._transaction():
            for table in ("items", "docs", "namespaces", "outbox", "quarantine"):
                self._db.execute(f"DELETE FROM {table}")
        count = 0
        chunk: list[tuple[Record, Sequence[float]]] = []
        for pair in source:
            chunk.append(pair)
            if len(chunk) >= 2000:
                count += self._append(chunk)
                chunk = []
        count += self._append(chunk)
        self._restore_history(time.time())
        self.mark_built(generation)
        return count

    def _restore_history(self, now: float) -> None:
        """Bring the history in step with the records after :meth:`rebuild` (see there)."""
        with self._use(), self._transaction():
            last = {
                row[0]: (row[1], row[2])
                for row in self._db.execute(
                    "SELECT h.id, h.event, h.after FROM history h WHERE h.seq = (SELECT g.seq "
                    "FROM history g WHERE g.id = h.id ORDER BY g.at DESC, g.seq DESC LIMIT 1)"
                )
            }
            entries = []
            for row in self._db.execute(f"SELECT {RECORD_COLUMNS} FROM items i"):
                record = record_of_row(row)
                event, after = last.pop(row[0], (None, None))
                if event is None or event in ("delete", "expire"):
                    entries.append(_restored(record, "add", None, record.value, now))
                elif json.loads(after) != record.value:
                    entries.append(
                        _restored(record, "update", json.loads(after), record.value, now)
                    )
            for item_id, (event, after) in last.items():
                if event not in ("delete", "expire"):
                    *namespace, key = json.loads(item_id)
                    gone = Record(tuple(namespace), key, json.loads(after), now, now, None)
                    entries.append(_restored(gone, "delete", gone.value, None, now))
            self._append_history(entries)

    def _append(self, pairs: list[tuple[Record, Sequence[float]]]) -> int:
        if not pairs:
            return 0
        vectors = unit_vectors([vector for _, vector in pairs])
        with self._use(), self._transaction():
            for (record, _), vector in zip(pairs, vectors):
                self._db.execute("DELETE FROM items WHERE id = ?", (record.id,))
                self._insert(record, vector)
            self._recount({ns_key(record.namespace) for record, _ in pairs})
        return len(pairs)

    # -- the outbox -----------------------------------------------------------------------

    def outbox(self, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` ``(id, seq)`` rows the vector index has not applied, oldest first."""
        with self._use():
            return self._db.execute(
                "SELECT id, seq FROM outbox ORDER BY seq, id LIMIT ?", (limit,)
            ).fetchall()

    def outbox_size(self) -> int:
        """How many ids wait in the outbox."""
        with self._use():
            return self._db.execute("SELECT count(*) FROM outbox").fetchone()[0]

    def unindexed(self, prefix: Namespace) -> set[str]:
        """Ids under ``prefix`` that the index lags on: in the outbox or in quarantine."""
        sql = (
            "SELECT i.id FROM items i WHERE i.id IN "
            "(SELECT id FROM outbox UNION SELECT id FROM quarantine)"
        )
        scope, params = under(prefix, "i.ns", "?")
        with self._use():
            return {row[0] for row in self._db.execute(f"{sql} AND {scope}", params)}

    def requeue_all(self, generation: int) -> int:
        """Put every record in the outbox, e.g. after the vector index was lost.

        Args:
            generation: The index's generation, which this file takes on.

        Returns:
            How many ids were queued.
        """
        with self._use(), self._transaction():
            self._set_meta("generation", str(generation))
            self._db.execute("DELETE FROM meta WHERE name = 'applying'")
            seq = self._next_seq()
            self._db.execute("INSERT OR REPLACE INTO outbox SELECT id, ? FROM items", (seq,))
            self._db.execute("DELETE FROM quarantine")
            return self._db.execute("SELECT count(*) FROM outbox").fetchone()[0]

    def mark_applied(
        self, applied: Sequence[tuple[str, int]], refused: dict[str, str], *, generation: int
    ) -> None:
        """Clear outbox rows the index applied, quarantine what it refused, set ``generation``.

        A row re-queued by a later write (a higher ``seq``) stays.
        """
        with self._use(), self._transaction():
            self._db.executemany(
                "DELETE FROM outbox WHERE id = ? AND seq = ?", [tuple(row) for row in applied]
            )
            self._db.executemany(
                "INSERT OR REPLACE INTO quarantine VALUES (?, ?)", list(refused.items())
            )
            self._set_meta("generation", str(generation))
            self._db.execute("DELETE FROM meta WHERE name = 'applying'")

    def quarantined(self) -> dict[str, str]:
        """Ids the vector index refused, with the reason; they are still searched exactly."""
        with self._use():
            return dict(self._db.execute("SELECT id, reason FROM quarantine").fetchall())

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        found: dict[str, Record] = {}
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                rows = self._db.execute(
                    f"SELECT {RECORD_COLUMNS} FROM items i "
                    f"WHERE i.id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                found.update((row[0], record_of_row(row)) for row in rows)
        return [found.get(i) for i in ids]

    def live(self, ids: Sequence[str], *, now: float) -> set[str]:
        """Which of ``ids`` are records live at ``now`` (Unix seconds)."""
        found: set[str] = set()
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                rows = self._db.execute(
                    f"SELECT id FROM items WHERE id IN ({','.join('?' * len(chunk))}) "
                    "AND (expires IS NULL OR expires > ?)",
                    [*chunk, now],
                )
                found.update(row[0] for row in rows)
        return found

    def vectors(self, ids: Sequence[str]) -> list[np.ndarray | None]:
        """Stored unit embeddings by id, shape ``(dim,)`` each, ``None`` where absent."""
        found: dict[str, np.ndarray | None] = {}
        with self._use():
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                rows = self._db.execute(
                    f"SELECT id, vector FROM items WHERE id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                found.update(
                    (i, None if v is None else np.frombuffer(v, dtype=np.float32)) for i, v in rows
                )
        return [found.get(i) for i in ids]

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``, by id; expired ones too if ``now`` is None."""
        condition, params = live_under(prefix, now, "?")
        last = ""
        while True:
            with self._use():
                rows = self._db.execute(
                    f"SELECT {RECORD_COLUMNS} FROM items i WHERE {condition} "
                    "AND i.id > ? ORDER BY i.id LIMIT ?",
                    [*params, last, 2000],
                ).fetchall()
            yield from (record_of_row(row) for row in rows)
            if len(rows) < 2000:
                return
            last = rows[-1][0]

    def history(self, item_id: str) -> list[HistoryEntry]:
        """Every change to the record ``item_id``, oldest first (by ``at``, then as written)."""
        with self._use():
            return self._history(item_id)

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, by record id, each key oldest first."""
        scope, params = under(prefix, "ns", "?")
        sql = (
            f"SELECT {HISTORY_COLUMNS}, seq FROM history WHERE (id, at, seq) > (?, ?, ?) "
            f"AND {scope} ORDER BY id, at, seq LIMIT 2000"
        )
        after: tuple[str, float, int] = ("", float("-inf"), -1)
        while True:
            with self._use():
                rows = self._db.execute(sql, [*after, *params]).fetchall()
            yield from (entry_of_row(row) for row in rows)
            if len(rows) < 2000:
                return
            after = (rows[-1][0], rows[-1][2], rows[-1][6])

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order.

        They come nearly sorted (by :func:`ns_key`) and decoded from one JSON array, so that
        listing 10,000 namespaces takes milliseconds.
        """
        scope, params = under(prefix, "ns", "?")
        with self._use():
            listed = self._db.execute(
                "SELECT '[' || group_concat(namespace, ',') || ']' FROM (SELECT namespace "
                f"FROM namespaces WHERE (lasting > 0 OR expires_max > ?) AND {scope} ORDER BY ns)",
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
        self, prefix: Namespace, *, clauses: Clauses, now: float, limit: int, offset: int = 0
    ) -> list[Record]:
        """Live records under ``prefix`` matching ``clauses``, newest ``updated_at`` first.

        Ties go by id.
        """
        condition, params = live_under(prefix, now, "?")
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

    def nearest(
        self,
        prefix: Namespace,
        *,
        embedding: np.ndarray,
        clauses: Clauses,
        now: float,
        limit: int,
        within: int | None,
        only: set[str] | None = None,
    ) -> Ranked | None:
        """Exact nearest-neighbour search from the embeddings kept here.

        The cost follows the size of the scope searched, not of the store: it reads the live
        records under ``prefix`` (by the ``ns`` index) and ranks their unit vectors by a dot
        product, which is the cosine similarity.

        Args:
            prefix: Namespace prefix; ``()`` covers all.
            embedding: The query embedding at unit length, shape ``(dim,)``.
            clauses: Filter clauses, applied before ranking.
            now: Unix seconds; expired records are left out.
            limit: Most ids to return.
            within: Give up (return ``None``) if more than this many live records lie under
                ``prefix``; ``None``: no bound.
            only: Rank only these ids (e.g. those the vector index lags on).

        Returns:
            ``(id, cosine similarity)`` pairs, most similar first, ties by id; or ``None``
            (see ``within``).
        """
        condition, params = live_under(prefix, now, "?")
        if only is not None:
            if not only:
                return []
            condition += f" AND i.id IN ({','.join('?' * len(only))})"
            params += sorted(only)
        with self._use():
            if within is not None:
                size = self._db.execute(
                    f"SELECT count(*) FROM (SELECT 1 FROM items i WHERE {condition} LIMIT ?)",
                    [*params, within + 1],
                ).fetchone()[0]
                if size > within:
                    return None
            rows = self._db.execute(
                f"SELECT i.id, i.vector{', i.value' if clauses else ''} FROM items i "
                f"WHERE {condition} AND i.vector IS NOT NULL",
                params,
            ).fetchall()
        if clauses:
            holds = compile_filter(clauses, PYTHON)
            rows = [row for row in rows if holds(json.loads(row[2]))]
        if not rows:
            return []
        matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32)
        scores = matrix.reshape(len(rows), -1) @ embedding
        return _best([row[0] for row in rows], scores, limit)

    def lexical(
        self, query: str, prefix: Namespace, *, clauses: Clauses, now: float, limit: int
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
            limit: Most ids to return.

        Returns:
            ``(id, BM25 score > 0)`` pairs, best first, ties by id.
        """
        terms = query_terms(query)
        if not terms:
            return []
        expression = "body : (" + " OR ".join(f'"{term}"' for term in terms) + ")"
        if prefix:
            expression = f"scope : {_scope_token(prefix)} AND {expression}"
        condition, params = live_under(prefix, now, "?")
        scope, scope_params = under(prefix, "ns", "?")
        with self._use():
            rows = self._db.execute(
                f"SELECT i.id, i.length, i.terms{', i.value' if clauses else ''} "
                f"FROM docs JOIN items i ON i.rowid = docs.rowid "
                f"WHERE docs MATCH ? AND {condition}",
                [expression, *params],
            ).fetchall()
            documents, words = self._db.execute(
                f"SELECT sum(items), sum(words) FROM namespaces WHERE {scope}", scope_params
            ).fetchone()
        if not rows:
            return []
        scores = bm25(
            _frequencies([row[2] for row in rows], terms),
            np.array([row[1] for row in rows]),
            documents=max(documents or 0, len(rows)),
            mean_length=(words or 0) / max(documents or 0, 1),
        )
        kept = scores > 0
        if clauses:
            holds = compile_filter(clauses, PYTHON)
            kept &= np.array([holds(json.loads(row[-1])) for row in rows])
        return _best([row[0] for row in rows], np.where(kept, scores, -np.inf), limit)

    def close(self) -> None:
        """Close the SQLite connection; using the file afterwards raises StoreClosedError."""
        with self._lock:
            self.closed = True
            self._db.close()


def _restored(
    record: Record,
    event: Any,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    now: float,
) -> HistoryEntry:
    return HistoryEntry(record.namespace, record.key, event, now, before, after, "restore")


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
