"""The lexical (BM25) index kept beside the vector index, on SQLite FTS5.

SQLite's FTS5 extension (standard library ``sqlite3``) ranks with Okapi BM25 (Robertson et al.,
TREC-3, 1994) over words lower-cased, accent-folded (``unicode61``) and Porter-stemmed. The index
holds each live record (its id, namespace, times and value as JSON) and the text the store
indexed for it, so a lexical search applies the namespace prefix, liveness and metadata filters
itself, exactly as the backends do. A namespace prefix is also a word of an FTS5 column (see
``_scope_token``), so at 100k+ items a search ranks only the items in its namespace.

Keeping the two indexes in step: the backend is the source of truth. Before each backend write
the store marks the ids as *pending* here (committed), then writes the backend, then updates this
index and clears the marks in one transaction. A crash in between leaves marks behind, and
:meth:`LexicalIndex.repair` (run when a store opens) re-reads those ids from the backend. An
index file that is new, or was never filled, is rebuilt from the whole backend.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvault.backends.base import Backend, Clauses, Record
from memvault.filters import matches
from memvault.namespace import Namespace

STOPWORDS = frozenset(
    """a about after again all also am an and any are as at be been before being both but by
    can could did do does doing don down during each ever few for from had has have having he
    her here hers him his how i if in into is it its just me more most my no nor not now of off
    on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours""".split()  # noqa: SIM905
)
"""English function words dropped from queries (kept when a query has nothing else)."""

_WORD = re.compile(r"\w+")
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
    vector BLOB
);
CREATE INDEX IF NOT EXISTS items_by_ns ON items (ns);
CREATE INDEX IF NOT EXISTS items_by_recency ON items (updated DESC, id);
CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(scope, body, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS pending (id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS namespaces (
    ns TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    items INTEGER NOT NULL,
    lasting INTEGER NOT NULL,
    expires_max REAL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_REBUILD_CHUNK = 2000
EXACT_SCOPE = 2_000
"""Largest namespace (in live records) that :meth:`LexicalIndex.nearest` searches exactly, by
reading its embeddings from SQLite; larger scopes go to the backend's approximate index.
Reading the vectors costs about 4.5 ms per 1,000 records (measured: 45 ms for 10,000), so at
2,000 the exact path stays under a Chroma query with a namespace ``where`` (18 ms at 10,000
memories, 64 ms for a 10,000-record prefix; ``bench/speed.py``)."""
BUSY_TIMEOUT = 60.0
"""Seconds a write waits for another process's write to the same index file."""


def match_query(query: str) -> str | None:
    """An FTS5 ``MATCH`` expression for a natural-language query: any of its words (OR).

    Function words (:data:`STOPWORDS`) are left out unless nothing else is left; each word is
    quoted, so FTS5 syntax in the query (``AND``, ``*``, ``:``, quotes) is taken literally.

    Args:
        query: The user's query.

    Returns:
        The expression, or ``None`` if the query has no words.
    """
    words = [w.lower() for w in _WORD.findall(query)]
    kept = [w for w in words if w not in STOPWORDS] or words
    if not kept:
        return None
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(kept))


def _scope_token(prefix: Namespace) -> str:
    """One word naming a namespace prefix: ``ns`` and a BLAKE2b digest.

    Each record's ``scope`` column holds the word of every prefix of its namespace, so a search
    asks FTS5 for the prefix and the query words at once and ranks only the records in scope.
    """
    digest = hashlib.blake2b(_ns_key(prefix).encode(), digest_size=10).hexdigest()
    return f"ns{digest}"


def _scope(namespace: Namespace) -> str:
    return " ".join(_scope_token(namespace[:depth]) for depth in range(1, len(namespace) + 1))


def _ns_key(namespace: Namespace) -> str:
    """A namespace as a string whose prefixes are exactly the namespace's prefixes.

    Each segment is JSON-quoted (which escapes every control character) and closed by the unit
    separator U+001F, so ``("a",)`` is a string prefix of ``("a", "b")`` but not of ``("ab",)``.
    """
    return "".join(json.dumps(segment, ensure_ascii=False) + "\x1f" for segment in namespace)


class LexicalIndex:
    """A persistent, incremental BM25 index of records on SQLite FTS5 (see the module docstring).

    Thread-safe: one connection, used under a lock.

    Args:
        path: The SQLite file (created if missing), or ``None`` for an index in memory that
            :meth:`repair` fills from the backend.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        target = str(self.path) if self.path is not None else ":memory:"
        self._db = sqlite3.connect(
            target, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT
        )
        self._lock = threading.Lock()
        with self._lock:
            if self.path is not None:
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(items)")}
            if self._db.execute("SELECT 1 FROM meta WHERE name = 'namespaces'").fetchone() is None:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("DELETE FROM namespaces")
                self._db.execute(
                    "INSERT INTO namespaces SELECT ns, namespace, count(*), sum(expires IS NULL), "
                    "max(expires) FROM items GROUP BY ns"
                )
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('namespaces', '1')")
                self._db.execute("COMMIT")
            if "vector" not in columns:  # written before embeddings were kept: rebuild
                self._db.execute("ALTER TABLE items ADD COLUMN vector BLOB")
                self._db.execute("DELETE FROM meta WHERE name = 'built'")

    # -- upkeep ---------------------------------------------------------------------------

    def repair(self, backend: Backend) -> int:
        """Bring the index in step with ``backend``, the source of truth.

        A never-filled index is rebuilt from every record of the backend; otherwise only the
        ids left pending by an interrupted write are re-read.

        Args:
            backend: The store's backend.

        Returns:
            How many records were re-read from the backend.
        """
        with self._lock:
            built = self._db.execute("SELECT 1 FROM meta WHERE name = 'built'").fetchone()
            pending = [row[0] for row in self._db.execute("SELECT id FROM pending")]
        if built is None:
            return self._rebuild(backend)
        if not pending:
            return 0
        found = [r for r in backend.get(pending) if r is not None]
        present = {r.id for r in found}
        vectors = backend.embeddings([r.id for r in found])
        with self._lock, self._transaction():
            self._recount(self._delete_rows([i for i in pending if i not in present]))
            self._write_rows(found, [indexed_text(r.value) for r in found], vectors)
            self._db.execute("DELETE FROM pending")
        return len(pending)

    def _rebuild(self, backend: Backend) -> int:
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM items")
            self._db.execute("DELETE FROM docs")
            self._db.execute("DELETE FROM namespaces")
        count = 0
        chunk: list[Record] = []
        for record in backend.scan((), now=None):
            chunk.append(record)
            if len(chunk) >= _REBUILD_CHUNK:
                count += self._append(chunk, backend)
                chunk = []
        count += self._append(chunk, backend)
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM pending")
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('built', '1')")
        return count

    def _append(self, records: list[Record], backend: Backend) -> int:
        vectors = backend.embeddings([r.id for r in records])
        with self._lock, self._transaction():
            self._write_rows(records, [indexed_text(r.value) for r in records], vectors)
        return len(records)

    def mark_pending(self, ids: Sequence[str]) -> None:
        """Record that a backend write of ``ids`` is about to happen (committed at once)."""
        with self._lock, self._transaction():
            self._db.executemany("INSERT OR IGNORE INTO pending VALUES (?)", [(i,) for i in ids])

    def upsert(
        self,
        records: Sequence[Record],
        texts: Sequence[str],
        embeddings: Sequence[Sequence[float] | None],
    ) -> None:
        """Index records (replacing any with the same id) and clear their pending marks.

        Args:
            records: The records just written to the backend.
            texts: The indexed text of each record, as :func:`indexed_text` gives it.
            embeddings: Their embeddings, shape ``(len(records), dim)``, kept (at unit length,
                as float32) for :meth:`nearest`.
        """
        with self._lock, self._transaction():
            self._write_rows(records, texts, embeddings)
            self._db.executemany("DELETE FROM pending WHERE id = ?", [(r.id,) for r in records])

    def delete(self, ids: Sequence[str]) -> None:
        """Remove records by id (absent ids are ignored) and clear their pending marks."""
        with self._lock, self._transaction():
            self._recount(self._delete_rows(ids))
            self._db.executemany("DELETE FROM pending WHERE id = ?", [(i,) for i in ids])

    def _write_rows(
        self,
        records: Sequence[Record],
        texts: Sequence[str],
        embeddings: Sequence[Sequence[float] | None],
    ) -> None:
        touched = set()
        for record, text, embedding in zip(records, texts, embeddings):
            touched |= self._delete_rows([record.id])
            touched.add(_ns_key(record.namespace))
            cursor = self._db.execute(
                "INSERT INTO items (id, ns, namespace, key, value, created, updated, expires, "
                "vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    _ns_key(record.namespace),
                    json.dumps(list(record.namespace), ensure_ascii=False),
                    record.key,
                    json.dumps(record.value, ensure_ascii=False),
                    record.created_at,
                    record.updated_at,
                    record.expires_at,
                    None if embedding is None else _unit_vector(embedding).tobytes(),
                ),
            )
            self._db.execute(
                "INSERT INTO docs (rowid, scope, body) VALUES (?, ?, ?)",
                (cursor.lastrowid, _scope(record.namespace), text),
            )
        self._recount(touched)

    def _delete_rows(self, ids: Iterable[str]) -> set[str]:
        """Delete rows by id; returns the ``ns`` keys of the namespaces they were in."""
        touched = set()
        for record_id in ids:
            row = self._db.execute(
                "SELECT rowid, ns FROM items WHERE id = ?", (record_id,)
            ).fetchone()
            if row is not None:
                self._db.execute("DELETE FROM docs WHERE rowid = ?", row[:1])
                self._db.execute("DELETE FROM items WHERE rowid = ?", row[:1])
                touched.add(row[1])
        return touched

    def _recount(self, ns_keys: Iterable[str]) -> None:
        """Bring the ``namespaces`` rows of ``ns_keys`` in step with ``items``.

        Each row counts a namespace's records, those that never expire (``lasting``) and the
        latest expiry of the others, so :meth:`namespaces` answers from one small table.
        """
        for ns in ns_keys:
            self._db.execute("DELETE FROM namespaces WHERE ns = ?", (ns,))
            self._db.execute(
                "INSERT INTO namespaces SELECT ns, namespace, count(*), "
                "sum(expires IS NULL), max(expires) FROM items WHERE ns = ? GROUP BY ns",
                (ns,),
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id as last indexed (expired ones included), ``None`` where absent."""
        found: dict[str, Record] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT id, namespace, key, value, created, updated, expires FROM items "
                    f"WHERE id IN ({marks})",
                    chunk,
                )
                found.update((row[0], _record(row[1:])) for row in rows)
        return [found.get(i) for i in ids]

    @staticmethod
    def _where(prefix: Namespace, now: float) -> tuple[str, list[Any]]:
        """SQL conditions (on table alias ``i``) for liveness at ``now`` and a namespace prefix."""
        sql = "(i.expires IS NULL OR i.expires > ?)"
        params: list[Any] = [now]
        if prefix:
            key = _ns_key(prefix)
            sql += " AND i.ns >= ? AND i.ns < ?"
            params += [key, key + "\U0010ffff"]
        return sql, params

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order."""
        sql = "SELECT namespace FROM namespaces WHERE (lasting > 0 OR expires_max > ?)"
        params: list[Any] = [now]
        if prefix:
            key = _ns_key(prefix)
            sql += " AND ns >= ? AND ns < ?"
            params += [key, key + "\U0010ffff"]
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [tuple(json.loads(row[0])) for row in rows]

    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        condition, params = self._where(prefix, now)
        with self._lock:
            return self._db.execute(
                f"SELECT count(*) FROM items i WHERE {condition}", params
            ).fetchone()[0]

    def recent(
        self, prefix: Namespace, *, clauses: Clauses, now: float, limit: int, offset: int = 0
    ) -> list[Record]:
        """Live records under ``prefix`` matching ``clauses``, most recently updated first.

        Ties go by id, as the backends order a search without a query.
        """
        condition, params = self._where(prefix, now)
        sql = (
            "SELECT i.namespace, i.key, i.value, i.created, i.updated, i.expires, 0 FROM items i "
            f"WHERE {condition} ORDER BY i.updated DESC, i.id"
        )
        if not clauses:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        with self._lock:
            hits = self._take(
                self._db.execute(sql, params), clauses, limit + (offset if clauses else 0)
            )
        return [record for record, _ in (hits[offset:] if clauses else hits)]

    def nearest(
        self,
        prefix: Namespace,
        *,
        embedding: Sequence[float],
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> list[tuple[Record, float]] | None:
        """Exact nearest-neighbour search of a small namespace, from the embeddings kept here.

        The cost follows the size of the namespace searched, not of the store: it reads the
        live records under ``prefix`` (by the ``ns`` index) and ranks their unit vectors by a
        dot product, which is the cosine similarity.

        Args:
            prefix: Namespace prefix; ``()`` covers all.
            embedding: The query embedding, shape ``(dim,)``.
            clauses: Filter clauses, applied before ranking.
            now: Unix seconds; expired records are left out.
            limit: Most records to return.

        Returns:
            ``(record, cosine similarity)`` pairs, most similar first, ties by id; or ``None``
            when more than :data:`EXACT_SCOPE` live records lie under ``prefix`` or one lacks
            its embedding, so the caller asks the approximate index instead.
        """
        condition, params = self._where(prefix, now)
        with self._lock:
            size = self._db.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM items i WHERE {condition} LIMIT ?)",
                [*params, EXACT_SCOPE + 1],
            ).fetchone()[0]
            if size > EXACT_SCOPE:
                return None
            # Vectors (and values only when a filter must read them) first; whole records
            # only for the winners.
            rows = self._db.execute(
                f"SELECT i.rowid, i.id, i.vector{', i.value' if clauses else ''} FROM items i "
                f"WHERE {condition}",
                params,
            ).fetchall()
        if any(row[2] is None for row in rows):
            return None
        if clauses:
            rows = [row for row in rows if matches(json.loads(row[3]), clauses)]
        if not rows:
            return []
        matrix = np.frombuffer(b"".join(row[2] for row in rows), dtype=np.float32)
        scores = matrix.reshape(len(rows), -1) @ _unit_vector(embedding)
        if len(rows) > limit:  # the top `limit`, and everything tied with the last of them
            bound = np.partition(scores, len(rows) - limit)[len(rows) - limit]
            candidates = np.flatnonzero(scores >= bound)
        else:
            candidates = np.arange(len(rows))
        order = sorted(candidates, key=lambda i: (-scores[i], rows[i][1]))[:limit]
        with self._lock:
            records = {
                row[0]: _record(row[1:])
                for row in self._db.execute(
                    "SELECT rowid, namespace, key, value, created, updated, expires FROM items "
                    f"WHERE rowid IN ({','.join('?' * len(order))})",
                    [rows[i][0] for i in order],
                )
            }
        return [(records[rows[i][0]], float(scores[i])) for i in order]

    def search(
        self,
        query: str,
        prefix: Namespace,
        *,
        clauses: Clauses,
        now: float,
        limit: int,
        offset: int = 0,
    ) -> list[tuple[Record, float]]:
        """Live records under ``prefix`` matching ``clauses``, best BM25 match first.

        Args:
            query: Natural-language query (see :func:`match_query`).
            prefix: Namespace prefix; ``()`` covers all.
            clauses: Filter clauses from :func:`memvault.filters.normalize_filter`.
            now: Unix seconds; records expired by then are left out.
            limit: Most records to return.
            offset: Records to skip first.

        Returns:
            ``(record, score)`` pairs; the score is FTS5's BM25 relevance negated, so higher is
            better and it is ``> 0``.
        """
        expression = match_query(query)
        if expression is None:
            return []
        expression = f"body : ({expression})"
        if prefix:
            expression = f"scope : {_scope_token(prefix)} AND {expression}"
        condition, params = self._where(prefix, now)
        sql = (
            "SELECT i.namespace, i.key, i.value, i.created, i.updated, i.expires, "
            "bm25(docs, 0.0, 1.0) AS rank FROM docs JOIN items i ON i.rowid = docs.rowid "
            f"WHERE docs MATCH ? AND {condition} ORDER BY rank"
        )
        params = [expression, *params]
        if not clauses:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        with self._lock:
            rows = self._db.execute(sql, params)
            hits = self._take(rows, clauses, limit + (offset if clauses else 0))
        return hits[offset:] if clauses else hits

    @staticmethod
    def _take(rows: Iterator[tuple[Any, ...]], clauses: Clauses, wanted: int) -> list:
        hits: list[tuple[Record, float]] = []
        for row in rows:
            record = _record(row[:6])
            if clauses and not matches(record.value, clauses):
                continue
            hits.append((record, -float(row[6])))
            if len(hits) >= wanted:
                break
        return hits

    def close(self) -> None:
        """Close the SQLite connection; the index is unusable afterwards."""
        with self._lock:
            self._db.close()


class _Transaction:
    """``with`` block around one SQLite transaction: committed on success, else rolled back."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        # IMMEDIATE takes the write lock up front, so a second process waits for it (up to
        # the connection's timeout) instead of failing when a read would upgrade to a write.
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type | None, *rest: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _unit_vector(embedding: Sequence[float]) -> np.ndarray:
    """An embedding as float32 of unit length (so a dot product is the cosine similarity)."""
    vector = np.asarray(embedding, dtype=np.float32).reshape(-1)
    return vector / max(float(np.linalg.norm(vector)), 1e-12)


def _record(row: Sequence[Any]) -> Record:
    namespace, key, value, created, updated, expires = row
    return Record(
        namespace=tuple(json.loads(namespace)),
        key=key,
        value=json.loads(value),
        created_at=created,
        updated_at=updated,
        expires_at=expires,
    )


def indexed_text(value: dict[str, Any]) -> str:
    """The text the store embeds and indexes for a value.

    ``value["text"]``, followed on a new line by ``value["context"]`` when that is a non-empty
    string: words that help find the item without being part of what it says, such as the
    neighbouring turns of a conversation (see :mod:`memvault.conversations`).

    Args:
        value: A valid store value.

    Returns:
        The text to embed and index.
    """
    context = value.get("context")
    if isinstance(context, str) and context.strip():
        return f"{value['text']}\n{context}"
    return value["text"]
