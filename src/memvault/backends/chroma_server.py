"""The shared topology: a Chroma server that several machines read and write.

The server's collection is the system of record: each record lives in its metadata
(``mv.record``, see :mod:`memvault.backends.chroma_schema`) beside its embedding, and every
read goes to the server, so a store sees what other machines wrote as soon as the server has
it. There is no BM25 index on a server (it would be a file on one machine), so the only search
mode is ``"dense"``.

History lives on the server too, in a second collection beside the records,
``<collection>__history``: one entry per change, each with a 1-dimension dummy embedding (the
collection is never queried by vector), metadata ``mv.id`` (the record id), ``mv.ns.<depth>``
(namespace prefixes, as records have them) and ``mv.entry`` (the entry as JSON, with an
``order``: nanoseconds of the writer's clock, strictly increasing within a process, that
orders entries of one ``at``). Chroma writes one collection per request, so a write is two
steps: the history entries first, then the records; if the records' write fails, the entries
are deleted again. A crash of the writer between the two leaves entries of a change that never
landed (never a change without its entries).

Every record's metadata holds its validity (``mv.valid_from``, ``mv.valid_to``, see
:mod:`memvault.backends.chroma_schema`), and every search keeps the records its
:class:`~memvault.model.Validity` admits in its ``where``. A collection written by a memvault
from before validity holds records without those keys, which no ``where`` on them would find:
the first backend that opens it gives each such record the two keys (a record holds from its
``updated_at``, still), and then marks the collection done (:data:`BACKFILLED`, in the history
collection's metadata, which nothing else writes), so that later opens read one value. The
records themselves (``mv.record``) are not rewritten. Machines that share a collection should
all run a memvault that knows validity: a record an older one writes after the backfill lacks
the keys, and searches do not find it until it is written again.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from memvault.backends.base import Backend
from memvault.backends.chroma_schema import (
    DEFAULT_COLLECTION,
    PAGE,
    check_collection,
    has_validity,
    metadata_of,
    nearest_where,
    record_of,
    where,
)
from memvault.compare_and_set import check_expected, check_expected_deletes
from memvault.errors import (
    BackendError,
    BackendUnavailableError,
    InvalidArgumentError,
    MemvaultError,
    StoreClosedError,
)
from memvault.history import entries_of_delete, entries_of_erase, entries_of_upsert
from memvault.model import (
    Change,
    Clauses,
    Found,
    HistoryEntry,
    Namespace,
    Ranked,
    Record,
    SearchMode,
    Validity,
    Vector,
    Vectors,
    record_id,
)

HISTORY_SUFFIX = "__history"
"""Appended to a collection's name to name the collection of its history."""
_DUMMY = [1.0]
"""The embedding of every history entry: the history collection is read by id and metadata."""
BACKFILLED = "mv.validity"
"""The history collection's metadata key (``True``) that says every record of the collection
carries its validity (see the module docstring)."""
_VALIDITY_KEYS = ("mv.valid_from", "mv.valid_to")


class ChromaServerBackend(Backend):
    """Memories in a collection of a Chroma server shared by machines (dense search only).

    Args:
        client: A Chroma client of the server, e.g. ``chromadb.HttpClient(host=..., port=...)``
            (any client works, e.g. ``EphemeralClient`` as an offline stand-in); or leave it
            out and give ``host``.
        host: The server's host name, for a client made here.
        port: The server's port.
        collection: Collection name (3-503 characters); one store per collection. Its
            history is kept in the collection ``<collection>__history``.

    Reading the version an upsert replaces and writing the new one are two requests: two
    machines writing one key at once may both keep their own ``created_at``; the last write
    wins. A write larger than the server's batch limit is several requests; if one fails, the
    versions the earlier ones replaced are put back before the error is raised (a crash of
    this process in between leaves the earlier batches written).

    An erase (``delete(..., erase=True)``) records ``"erase"``, deletes the records and then
    empties the values of every history entry of those keys; if it fails between, erasing
    the key again finishes it. Afterwards no record or history entry the collections return
    holds the text. It cannot reach what the server keeps beyond them: Chroma's own
    write-ahead log of the collection's writes (the ``embeddings_queue`` table of its SQLite
    file, which holds every write's metadata, the text among it, until Chroma purges it),
    pages of the server's files freed but not yet overwritten, and the server's backups.

    Raises:
        BackendUnavailableError: If the server cannot be reached (names host and port).
        InvalidArgumentError: If neither or both of ``client`` and ``host`` are given.
    """

    search_modes: tuple[SearchMode, ...] = ("dense",)
    supports_compare_and_set = True
    returns_embeddings = True

    def __init__(
        self,
        client: Any = None,
        *,
        host: str | None = None,
        port: int = 8000,
        collection: str = DEFAULT_COLLECTION,
    ) -> None:
        self._closed = False
        check_collection(collection)
        if len(collection) > 512 - len(HISTORY_SUFFIX):
            raise InvalidArgumentError(
                f"collection must be at most {512 - len(HISTORY_SUFFIX)} characters, since its "
                f"history lives in '<collection>{HISTORY_SUFFIX}', got {len(collection)}"
            )
        self._order = 0
        if (client is None) == (host is None):
            raise InvalidArgumentError(
                "give ChromaServerBackend a client, or a host (and port), not both"
            )
        self.address = f"{host}:{port}" if host is not None else "the server of the client given"
        with self._translated():
            if host is not None:  # and so client is None: one of them is given
                import chromadb
                from chromadb.config import Settings

                client = chromadb.HttpClient(
                    host=host, port=port, settings=Settings(anonymized_telemetry=False)
                )
            self.client = client
            self.collection = client.get_or_create_collection(
                collection, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
            )
            self.history_collection = client.get_or_create_collection(
                collection + HISTORY_SUFFIX, embedding_function=None
            )
            self.max_batch = int(client.get_max_batch_size())
            if not (self.history_collection.metadata or {}).get(BACKFILLED):
                self._backfill_validity()

    def _backfill_validity(self) -> None:
        """Give every record without ``mv.valid_from``/``mv.valid_to`` the two, then mark it.

        Only those two keys are written (Chroma merges an update's metadata), so a record
        another machine rewrites meanwhile keeps its own record; see the module docstring.
        """
        for offset in itertools.count(0, PAGE):
            page = self.collection.get(limit=PAGE, offset=offset, include=["metadatas"])
            lacking = [
                (item_id, record_of(metadata))
                for item_id, metadata in zip(page["ids"], page["metadatas"])
                if not has_validity(metadata)
            ]
            for start in range(0, len(lacking), self.max_batch):
                chunk = lacking[start : start + self.max_batch]
                self.collection.update(
                    ids=[item_id for item_id, _ in chunk],
                    metadatas=[
                        {name: metadata_of(record)[name] for name in _VALIDITY_KEYS}
                        for _, record in chunk
                    ],
                )
            if len(page["ids"]) < PAGE:
                break
        self.history_collection.modify(metadata={BACKFILLED: True})

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """Errors of the client (httpx, Chroma) leave as memvault's, with the cause chained."""
        if self._closed:
            raise StoreClosedError("the store was closed; open a new MemoryStore")
        try:
            yield
        except MemvaultError:
            raise
        except Exception as error:
            import httpx

            unreachable = isinstance(error, (httpx.TransportError, ConnectionError)) or (
                "could not connect" in str(error).lower()
            )
            if unreachable:
                raise BackendUnavailableError(
                    f"the Chroma server at {self.address} cannot be reached ({error}); start "
                    "it, or check the host and port"
                ) from error
            raise BackendError(
                f"the Chroma server at {self.address} refused the operation: "
                f"{type(error).__name__}: {error}"
            ) from error

    def upsert(
        self, records: Sequence[Record], embeddings: Vectors, *, now: float, change: Change
    ) -> list[Record]:
        """Insert or replace records, keeping ``created_at`` of live replaced versions.

        The history entries are written first, the records after (see the module docstring).
        ``change.expected`` is checked against the versions read just before: a Chroma
        server has no transaction, so a compare-and-set here catches every writer that wrote
        before that read, but two machines writing one key within the same few milliseconds
        can both pass it. Share a store between writing machines on Postgres for strict
        compare-and-set.

        Raises:
            ConflictError: Where a version read is not the one ``change.expected`` names;
                nothing is written.
        """
        if not records and not change.imported_history:
            return []
        previous = self.get([r.id for r in records])
        check_expected(records, previous, change, now=now)
        stored = [
            replace(r, created_at=old.created_at) if old is not None and old.live(now) else r
            for r, old in zip(records, previous)
        ]
        imported_ids = sorted({record_id(e.namespace, e.key) for e in change.imported_history})
        kept = _ordered(entry for _, entry in self._history_of(imported_ids))
        entries = entries_of_upsert(records, previous, now=now, change=change, kept=kept)
        logged = self._log(entries)
        try:
            self._write(stored, embeddings, previous)
        except BaseException:
            self._unlog(logged)
            raise
        return stored

    def _write(
        self, stored: list[Record], embeddings: Vectors, previous: list[Record | None]
    ) -> None:
        if not stored:
            return
        vectors = np.asarray(embeddings, dtype=np.float32).reshape(len(stored), -1)
        # One request is all or nothing on the server; a write of several batches keeps the
        # versions it replaces (embeddings too) to put back if a later batch fails.
        undo = self.embeddings([r.id for r in stored]) if len(stored) > self.max_batch else None
        written = 0
        try:
            for start in range(0, len(stored), self.max_batch):
                self._upsert(
                    stored[start : start + self.max_batch], vectors[start:], previous[start:]
                )
                written = start + self.max_batch
        except BaseException:
            if undo is not None and written:
                self._restore(stored[:written], previous[:written], undo[:written])
            raise

    def _next_order(self) -> int:
        """Nanoseconds of this process's clock, strictly increasing from call to call."""
        self._order = max(time.time_ns(), self._order + 1)
        return self._order

    def _log(self, entries: Sequence[HistoryEntry]) -> list[str]:
        """Write history entries to the history collection; their ids, to :meth:`_unlog`."""
        ids = [uuid.uuid4().hex for _ in entries]
        with self._translated():
            for start in range(0, len(entries), self.max_batch):
                chunk = entries[start : start + self.max_batch]
                self.history_collection.add(
                    ids=ids[start : start + self.max_batch],
                    embeddings=np.asarray([_DUMMY] * len(chunk), dtype=np.float32),
                    metadatas=[self._entry_metadata(e) for e in chunk],
                )
        return ids

    def _entry_metadata(self, entry: HistoryEntry) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "mv.id": record_id(entry.namespace, entry.key),
            "mv.entry": json.dumps(
                {**entry.to_json(), "order": self._next_order()}, ensure_ascii=False
            ),
        }
        metadata.update(
            {
                f"mv.ns.{depth}": json.dumps(list(entry.namespace[:depth]), ensure_ascii=False)
                for depth in range(1, len(entry.namespace) + 1)
            }
        )
        return metadata

    def _unlog(self, ids: Sequence[str]) -> None:
        """Take back history entries whose write failed (best effort: the error stands)."""
        with contextlib.suppress(Exception):
            for start in range(0, len(ids), self.max_batch):
                self.history_collection.delete(ids=list(ids[start : start + self.max_batch]))

    def history(self, namespace: Namespace, key: str) -> list[HistoryEntry]:
        """Every change to ``(namespace, key)``, oldest first (by ``at``, then as written)."""
        return _ordered(self._history_pages({"mv.id": record_id(namespace, key)}))

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, key by key, each oldest first."""
        every = _ordered(self._history_pages(where(prefix, [], None)))
        every.sort(key=lambda e: record_id(e.namespace, e.key))  # stable: each key oldest first
        return iter(every)

    def _history_pages(self, condition: dict[str, Any] | None) -> Iterator[dict[str, Any]]:
        """The stored entries (``mv.entry``) matching ``condition``."""
        yield from (entry for _, entry in self._history_rows(condition))

    def _history_rows(
        self, condition: dict[str, Any] | None
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(history collection id, stored entry)`` of the entries matching ``condition``."""
        for offset in itertools.count(0, PAGE):
            with self._translated():
                page = self.history_collection.get(
                    where=condition, limit=PAGE, offset=offset, include=["metadatas"]
                )
            yield from (
                (i, json.loads(m["mv.entry"])) for i, m in zip(page["ids"], page["metadatas"])
            )
            if len(page["ids"]) < PAGE:
                return

    def _history_of(self, ids: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """:meth:`_history_rows` of the record ids ``ids``, 100 ids a request."""
        return [
            row
            for start in range(0, len(ids), 100)
            for row in self._history_rows({"mv.id": {"$in": list(ids[start : start + 100])}})
        ]

    def _scrub(self, ids: Sequence[str]) -> None:
        """Set ``before`` and ``after`` of every history entry of the record ids to ``None``."""
        rows = [
            (i, {**entry, "before": None, "after": None})
            for i, entry in self._history_of(ids)
            if entry["before"] is not None or entry["after"] is not None
        ]
        with self._translated():
            for start in range(0, len(rows), self.max_batch):
                chunk = rows[start : start + self.max_batch]
                self.history_collection.update(
                    ids=[i for i, _ in chunk],
                    metadatas=[
                        {"mv.entry": json.dumps(entry, ensure_ascii=False)} for _, entry in chunk
                    ],
                )

    def _upsert(
        self, chunk: Sequence[Record], vectors: np.ndarray, previous: Sequence[Record | None]
    ) -> None:
        metadatas = [metadata_of(r) for r in chunk]
        # Chroma merges an upsert's metadata into the old one: unset the keys the previous
        # version had and this one lacks.
        for metadata, old in zip(metadatas, previous):
            if old is not None:
                for name in metadata_of(old).keys() - metadata.keys():
                    metadata[name] = None
        with self._translated():
            self.collection.upsert(
                ids=[r.id for r in chunk], embeddings=vectors[: len(chunk)], metadatas=metadatas
            )

    def embeddings(self, ids: Sequence[str]) -> list[Vector | None]:
        """The embedding of each id as the collection holds it, ``None`` where absent."""
        found: dict[str, list[float]] = {}
        distinct = list(dict.fromkeys(ids))  # Chroma refuses an id given twice
        with self._translated():
            for start in range(0, len(distinct), self.max_batch):
                got = self.collection.get(
                    ids=distinct[start : start + self.max_batch], include=["embeddings"]
                )
                found.update(zip(got["ids"], (list(map(float, e)) for e in got["embeddings"])))
        return [found.get(i) for i in ids]

    def _restore(
        self,
        written: Sequence[Record],
        previous: Sequence[Record | None],
        embeddings: Sequence[Vector | None],
    ) -> None:
        """Put back what a failed multi-batch write replaced: delete new ids, rewrite old ones."""
        with self._translated():
            self.collection.delete(ids=[r.id for r, old in zip(written, previous) if old is None])
            kept = [(old, e) for old, e in zip(previous, embeddings) if old is not None]
            for start in range(0, len(kept), self.max_batch):
                chunk = kept[start : start + self.max_batch]
                self.collection.upsert(
                    ids=[old.id for old, _ in chunk],
                    embeddings=np.asarray([e for _, e in chunk], dtype=np.float32),
                    metadatas=[metadata_of(old) for old, _ in chunk],
                )

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        found: dict[str, Record] = {}
        distinct = list(dict.fromkeys(ids))  # Chroma refuses an id given twice
        with self._translated():
            for start in range(0, len(distinct), self.max_batch):
                got = self.collection.get(
                    ids=distinct[start : start + self.max_batch], include=["metadatas"]
                )
                found.update({i: record_of(m) for i, m in zip(got["ids"], got["metadatas"])})
        return [found.get(i) for i in ids]

    def delete(
        self,
        ids: Sequence[str],
        *,
        now: float,
        source: str,
        expected: Sequence[tuple[str, float]] = (),
        erase: bool = False,
    ) -> None:
        """Delete records by id, history first; absent ids are ignored.

        With ``erase``, ``"erase"`` is recorded for each id that has a record or a history,
        the records are deleted, and then every history entry of those ids loses its values
        (see the class docstring).

        ``expected`` is checked against the versions read just before, as :meth:`upsert`
        checks its compare-and-set: a Chroma server has no transaction, so the check catches
        every writer that wrote before that read, but a write by another machine within the
        same few milliseconds can come between the check and the delete and be deleted.
        Share a store between writing machines on Postgres for strict compare-and-set.

        Raises:
            ConflictError: Where a record named in ``expected`` is absent, expired or of
                another ``updated_at``; nothing is deleted.
        """
        distinct = list(dict.fromkeys(ids))
        previous = self.get(distinct)
        check_expected_deletes(distinct, previous, expected, now=now)
        if erase:
            kept = {record_id(e["namespace"], e["key"]) for _, e in self._history_of(distinct)}
            entries = entries_of_erase(
                [i for i, old in zip(distinct, previous) if old is not None or i in kept],
                now=now,
                source=source,
            )
        else:
            entries = entries_of_delete(previous, now=now, source=source)
        logged = self._log(entries)
        try:
            with self._translated():
                for start in range(0, len(ids), self.max_batch):
                    self.collection.delete(ids=list(ids[start : start + self.max_batch]))
        except BaseException:
            self._unlog(logged)
            raise
        if erase:
            self._scrub(distinct)

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
        records = list(self._pages(where(prefix, clauses, now, valid)))
        records.sort(key=lambda r: (-r.updated_at, r.id))
        return records[offset : offset + limit]

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
        """Ids of the live matching records ``valid`` admits nearest to ``embedding``.

        Scored ``1 - cosine distance``. With a namespace prefix and no filter the query first
        runs on the prefix alone (a liveness or validity clause that nearly every record
        matches makes Chroma materialise them all); only if an expired record or one
        ``valid`` leaves out came back does it run again with both inside.
        """
        found = self.dense_records(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        return [(record.id, score) for record, score in found]

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
        """:meth:`dense` with each record: one query, which returns the records' metadata."""
        vector = np.asarray(embedding, dtype=np.float32).reshape(1, -1)
        condition, narrowed = nearest_where(prefix, clauses, now, valid)
        hits = self._nearest_with_ties(vector, condition, limit)
        if narrowed and any(not (r.live(now) and r.holds(valid)) for r, _ in hits):
            hits = self._nearest_with_ties(vector, where(prefix, clauses, now, valid), limit)
        return hits

    def _nearest_with_ties(
        self, vector: np.ndarray, condition: dict[str, Any] | None, limit: int
    ) -> list[tuple[Record, float]]:
        """The ``limit`` nearest hits, best first, ties by id.

        Chroma returns any of the records tied at its cut, so this asks for more until the
        last hit scores below the cut: then every tie is there to be ordered by id.
        """
        n = limit + 1
        while True:
            hits = self._nearest(vector, condition, n)
            if len(hits) < n or hits[-1][1] < hits[limit - 1][1]:
                return hits[:limit]
            n *= 2

    def _nearest(
        self, vector: np.ndarray, condition: dict[str, Any] | None, n: int
    ) -> list[tuple[Record, float]]:
        with self._translated():
            found = self.collection.query(
                query_embeddings=vector,
                n_results=n,
                where=condition,
                include=["metadatas", "distances"],
            )
        hits = [
            (record_of(m), 1.0 - d) for m, d in zip(found["metadatas"][0], found["distances"][0])
        ]
        hits.sort(key=lambda hit: (-hit[1], hit[0].id))  # ties in the same order every time
        return hits

    def _pages(self, condition: dict[str, Any] | None) -> Iterator[Record]:
        offset = 0
        while True:
            with self._translated():
                page = self.collection.get(
                    where=condition, limit=PAGE, offset=offset, include=["metadatas"]
                )
            yield from (record_of(m) for m in page["metadatas"])
            if len(page["ids"]) < PAGE:
                return
            offset += PAGE

    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        return sum(1 for _ in self._pages(where(prefix, [], now)))

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``."""
        return list({r.namespace for r in self._pages(where(prefix, [], now))})

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``; expired ones too if ``now`` is None."""
        return self._pages(where(prefix, [], now))

    def get_info(self) -> dict[str, Any] | None:
        """The store's settings, from the collection metadata (``mv.info``), or None."""
        with self._translated():
            metadata = self.client.get_collection(self.collection.name).metadata or {}
        if "mv.info" in metadata:
            return json.loads(metadata["mv.info"])
        if "mv.embedder" in metadata:  # written by memvault before the info was one JSON key
            return {"embedder": metadata["mv.embedder"], "dim": metadata.get("mv.dim")}
        return None

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings in the collection metadata."""
        with self._translated():
            self.collection.modify(metadata={"mv.info": json.dumps(info)})

    def close(self) -> None:
        """Forget the client (a client passed in stays open for its owner)."""
        self._closed = True


def _ordered(stored: Iterator[dict[str, Any]]) -> list[HistoryEntry]:
    """History entries as stored (``mv.entry``), oldest first: by ``at``, then ``order``."""
    rows = sorted(stored, key=lambda e: (e["at"], e["order"]))
    return [
        HistoryEntry(
            namespace=tuple(e["namespace"]),
            key=e["key"],
            event=e["event"],
            at=e["at"],
            before=e["before"],
            after=e["after"],
            source=e["source"],
        )
        for e in rows
    ]
