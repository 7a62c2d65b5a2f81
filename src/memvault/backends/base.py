"""The protocols beneath :class:`~memvault.MemoryStore`: a backend, and a derived vector index.

The store validates every input, embeds texts, applies TTL defaults and fuses rankings; a
:class:`Backend` is the system of record of one topology: it stores records with their
embeddings and answers the reads the store routes to it. :class:`Backend` is an abstract base
class: its primitives are abstract, the rest has defaults, and what a backend offers beyond
them it declares in class attributes (:attr:`Backend.search_modes`,
:attr:`Backend.supports_compare_and_set`); the store never probes for methods. A hybrid search
asks for both of its rankings in one call (:meth:`Backend.both_rankings`), and a dense search
for its ranking with the records (:meth:`Backend.dense_records`), so that a database server
answers each in one round trip.

Two topologies ship (see ``docs/architecture.md``):

- **local** (:class:`~memvault.backends.local.LocalBackend`: the embedded default
  :class:`~memvault.ChromaBackend` and :class:`~memvault.InMemoryBackend`): a SQLite record
  file is the system of record (records, embeddings, a BM25 index, namespaces); a
  :class:`VectorIndex` (Chroma's HNSW) is derived from it and rebuilt from it;
- **shared** (:class:`~memvault.ChromaServerBackend`): a Chroma server holds the records and is
  read directly by every machine; dense search only.

All times are Unix seconds (UTC). A new backend subclasses :class:`Backend` and passes
:mod:`memvault.testing`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from memvault.errors import InvalidArgumentError
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
    record_id,
)

__all__ = [
    "Backend",
    "Clauses",
    "Found",
    "Ranked",
    "Record",
    "SearchMode",
    "Validity",
    "Vector",
    "Vectors",
    "VectorIndex",
    "record_id",
    "with_records",
]


class Backend(ABC):
    """The system of record of one topology: subclass it, implement the abstract methods.

    Every read takes ``now`` and never returns a record expired at that time; every search
    read takes ``valid`` (a :class:`~memvault.model.Validity`) and returns only the records
    it admits, applied inside the query as ``clauses`` are; every namespace
    argument named ``prefix`` covers that namespace and all below it, segment-wise; ``clauses``
    come from :func:`memvault.filters.normalize_filter` and are applied inside the query,
    before ``limit`` and ``offset``. A write is all or nothing, also across a crash.

    A backend keeps the history of every key (:class:`~memvault.model.HistoryEntry`): each
    write records its changes with the records it writes, in the same step (the version it
    replaces is read there anyway), using :func:`~memvault.history.entries_of_upsert` and
    :func:`~memvault.history.entries_of_delete`. History outlives the records it describes.

    The primitives are abstract; :meth:`dense_records` and :meth:`both_rankings` have
    defaults built on them (a backend on a server overrides them to answer in one round
    trip), and :meth:`lexical` has one that refuses. What a backend offers beyond the
    primitives it declares in class attributes (as LangGraph's ``BaseStore.supports_ttl``),
    which the store reads; it never probes for methods.

    Attributes:
        search_modes: The query modes served: ``"dense"`` always; ``"lexical"`` and
            ``"hybrid"`` where the backend keeps a BM25 index and implements :meth:`lexical`.
            Default ``("dense",)``.
        supports_compare_and_set: Whether :meth:`upsert` checks ``change.expected``
            atomically with its write (see :class:`~memvault.model.Change`), and
            :meth:`delete` its ``expected`` atomically with its delete; the store's
            ``put(..., if_updated_at=...)`` and ``delete(..., if_updated_at=...)`` refuse a
            backend without it (and never hand it a condition). Default ``False``.
        returns_embeddings: Whether :meth:`embeddings` reads the stored embeddings back.
            The store then writes a text it holds already without embedding it again, and
            exports embeddings (``export_jsonl(..., with_vectors=True)``); without it, it
            embeds every text it writes and refuses to export embeddings. Default ``False``.
    """

    search_modes: tuple[SearchMode, ...] = ("dense",)
    supports_compare_and_set: bool = False
    returns_embeddings: bool = False

    @abstractmethod
    def upsert(
        self, records: Sequence[Record], embeddings: Vectors, *, now: float, change: Change
    ) -> list[Record]:
        """Insert or replace records by id, all or nothing, one key at a time, with history.

        Reading the version replaced and writing the new one is one step per key (no other
        writer, thread or process, comes between): a record replacing one live at ``now``
        keeps its ``created_at``. The same step writes the history entries of
        :func:`~memvault.history.entries_of_upsert`, given the entries kept for the keys of
        ``change.imported_history`` (read in that step too), and, where the backend
        :attr:`supports_compare_and_set`, checks ``change.expected`` against the versions
        read (:func:`memvault.compare_and_set.check_expected`).

        Args:
            records: Distinct ids; none at all (and no imported history) writes nothing.
            embeddings: Shape ``(len(records), dim)``.
            now: Unix seconds.
            change: The write's source and kind, the history an import brings, and the
                ``updated_at`` each conditional record expects.

        Returns:
            The records as stored (``created_at`` kept where it applies), in the same order.

        Raises:
            ConflictError: Where a record's stored version is not the one expected; nothing
                is written then.
        """

    @abstractmethod
    def delete(
        self,
        ids: Sequence[str],
        *,
        now: float,
        source: str,
        expected: Sequence[tuple[str, float]] = (),
        erase: bool = False,
    ) -> None:
        """Delete records by id, all or nothing, with history; absent ids are ignored.

        Records ``"delete"`` for each record live at ``now`` and ``"expire"`` for each
        expired one (:func:`~memvault.history.entries_of_delete`), in the same step.

        With ``erase``, the records' text is removed from everything the backend keeps: the
        same step sets ``before`` and ``after`` of every history entry of those ids to
        ``None`` and records ``"erase"`` (at ``now``, ``before`` and ``after`` ``None``)
        instead of ``"delete"``/``"expire"``, also for an id with no record left but a
        history; and no file the backend writes holds the text readable afterwards (indexes
        rewritten, SQLite's freed pages zeroed, logs of the vector index cleared). What a
        backend cannot reach (backups, a server's own logs) its docstring says. Where
        the backend :attr:`supports_compare_and_set`, the same step checks ``expected``
        against the versions it deletes
        (:func:`memvault.compare_and_set.check_expected_deletes`); the store gives a
        condition to no other backend.

        Args:
            ids: Record ids.
            now: Unix seconds.
            source: Who deletes (e.g. ``"api"``, ``"cleanup"``).
            expected: A conditional delete's ``(record id, updated_at)`` pairs: each of
                those records is deleted only if its stored version is live at ``now`` with
                that ``updated_at`` (Unix seconds); ids not named delete as they are.
            erase: Remove the text from the history and the files too (above).

        Raises:
            ConflictError: Where a record named in ``expected`` is absent, expired or of
                another ``updated_at``; nothing is deleted then.
        """

    @abstractmethod
    def history(self, namespace: Namespace, key: str) -> list[HistoryEntry]:
        """Every change to ``(namespace, key)`` (that namespace exactly), oldest first.

        Oldest by ``at``; entries of one ``at`` in the order they were written. A deleted
        record's history is kept.
        """

    @abstractmethod
    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix`` (deleted ones too), for an export.

        Key by key (in no set order of keys), each key's entries oldest first, as
        :meth:`history` gives them.
        """

    @abstractmethod
    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent; one per id given."""

    @abstractmethod
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

    @abstractmethod
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

        ``embedding`` has shape ``(dim,)``.

        Returns:
            ``(id, cosine similarity)`` pairs, most similar first, ties by id (also at the
            cut: of records tied with the last one returned, those with the smaller ids).
        """

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
        """:meth:`dense` with each record, in one call: what a dense search returns.

        The default calls :meth:`dense` and :meth:`get` (:func:`with_records`); a backend on
        a server reads the records with the ranking (one round trip).

        Returns:
            ``(record, cosine similarity)`` pairs: :meth:`dense`'s ranking of the same
            arguments, each id with its record as :meth:`get` returns it.
        """
        ranked = self.dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        return with_records(self, ranked)

    def embeddings(self, ids: Sequence[str]) -> list[Vector | None]:
        """The embedding stored with each record, ``None`` where absent; one per id given.

        Only for backends that declare :attr:`returns_embeddings`; the default refuses.

        Returns:
            Per id, shape ``(dim,)``: the embedding written with the record, or a positive
            multiple of it (a backend may keep it at unit length), so every cosine similarity
            is the same.

        Raises:
            InvalidArgumentError: Where :attr:`returns_embeddings` is false.
        """
        raise InvalidArgumentError(
            f"{type(self).__name__} does not read stored embeddings back "
            "(returns_embeddings = False)"
        )

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
        """The ``limit`` live matching records ``valid`` admits best matching ``query`` (BM25).

        Only for backends whose :attr:`search_modes` include ``"lexical"``; the default
        refuses.

        Returns:
            ``(id, BM25 score > 0)`` pairs, best first, ties by id.

        Raises:
            InvalidArgumentError: Where ``"lexical"`` is not in :attr:`search_modes`.
        """
        raise InvalidArgumentError(
            f"{type(self).__name__} keeps no lexical (BM25) index; search with mode='dense'"
        )

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
        """The dense and the lexical ranking a hybrid search fuses, in one call.

        The default calls :meth:`dense` and :meth:`lexical`; a backend on a database server
        fetches both in one query (one round trip).

        Returns:
            ``(dense, lexical)``: what :meth:`dense` (of ``embedding``, shape ``(dim,)``) and
            :meth:`lexical` (of ``query``) return with the same arguments, exactly.

        Raises:
            InvalidArgumentError: Where ``"hybrid"`` is not in :attr:`search_modes`.
        """
        lexical = self.lexical(query, prefix, clauses=clauses, now=now, valid=valid, limit=limit)
        dense = self.dense(
            prefix, embedding=embedding, clauses=clauses, now=now, valid=valid, limit=limit
        )
        return dense, lexical

    def search(self, request: SearchRequest) -> Page:
        """One page of a search: the records and scores of ``request``'s order.

        The default runs the mode on the primitives: without a query :meth:`recent`;
        ``"lexical"``: :meth:`lexical` and :meth:`get`; ``"dense"``: :meth:`dense_records`;
        ``"hybrid"``: :meth:`both_rankings` of the top :data:`~memvault.fusion.FUSION_DEPTH`,
        fused and paged by :func:`memvault.fusion.hybrid_page` (the records of the tops are
        read once, only where the query names a period), then :meth:`get` of the page. A
        backend that can answer a mode in fewer round trips overrides this.

        Args:
            request: What to search (validated by the store; ``mode`` among
                :attr:`search_modes`).

        Returns:
            Up to ``request.limit`` ``(record, score)`` pairs: cosine similarity (dense),
            BM25 (lexical), the fused score (hybrid), ``None`` without a query. Records
            expired at ``request.now`` may be left in by a mode; the store drops them.
        """
        r = request
        page_end = r.offset + r.limit
        if r.mode is None:
            found = self.recent(
                r.prefix,
                clauses=r.clauses,
                now=r.now,
                valid=r.valid,
                limit=r.limit,
                offset=r.offset,
            )
            return [(record, None) for record in found]
        assert r.query is not None
        if r.mode == "lexical":
            ranked = self.lexical(
                r.query, r.prefix, clauses=r.clauses, now=r.now, valid=r.valid, limit=page_end
            )
            return list(with_records(self, ranked[r.offset :]))
        assert r.embedding is not None
        embedding = r.embedding
        if r.mode == "dense":
            found_dense = self.dense_records(
                r.prefix,
                embedding=embedding,
                clauses=r.clauses,
                now=r.now,
                valid=r.valid,
                limit=page_end,
            )
            return list(found_dense[r.offset :])

        def dense(n: int) -> Ranked:
            return self.dense(
                r.prefix, embedding=embedding, clauses=r.clauses, now=r.now, valid=r.valid, limit=n
            )

        top = self.both_rankings(
            r.query,
            r.prefix,
            embedding=embedding,
            clauses=r.clauses,
            now=r.now,
            valid=r.valid,
            limit=FUSION_DEPTH,
        )
        page = hybrid_page(top, dense, offset=r.offset, limit=r.limit, dated=self._dated(top, r))
        return list(with_records(self, page))

    def _dated(self, top: tuple[Ranked, Ranked], request: SearchRequest) -> set[str]:
        """Ids of the items of ``top`` created in one of the request's periods (one read)."""
        if not request.periods:
            return set()
        ids = list(dict.fromkeys(item_id for ranking in top for item_id, _ in ranking))
        return {
            record.id
            for record in self.get(ids)
            if record is not None and request.names_period_of(record.created_at)
        }

    @abstractmethod
    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""

    @abstractmethod
    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``, in no set order."""

    @abstractmethod
    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix`` in no set order; expired ones too if ``now`` is None."""

    @abstractmethod
    def get_info(self) -> dict[str, Any] | None:
        """The store's recorded settings (embedder name, dimension, fingerprint), or None."""

    @abstractmethod
    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (JSON values)."""

    @abstractmethod
    def close(self) -> None:
        """Release files and clients; afterwards every method raises ``StoreClosedError``."""


def with_records(backend: Backend, ranked: Ranked) -> Found:
    """``ranked`` with each record, read by ``backend.get`` (one call); ids gone since left out.

    Args:
        backend: The backend that ranked.
        ranked: ``(record id, score)`` pairs, best first.

    Returns:
        ``(record, score)`` pairs in the order of ``ranked``.
    """
    records = backend.get([item_id for item_id, _ in ranked])
    return [(record, score) for record, (_, score) in zip(records, ranked) if record is not None]


class VectorIndex(Protocol):
    """An approximate nearest-neighbour index derived from a local record file.

    It holds, per record id, the embedding and what a query filters on (namespace prefixes,
    expiry, top-level scalar fields), plus a copy of the record so that a lost or damaged
    record file can be rebuilt from it (:meth:`records`). It may lag behind the record file:
    :class:`~memvault.backends.local.LocalBackend` keeps the ids it has not applied yet in an
    outbox and ranks those exactly itself.

    Across processes, :meth:`locked` brackets every use: the index is written by one process at
    a time and reloaded by a reader whose copy is older than the record file's
    ``generation``.
    """

    def locked(
        self, current: Callable[[], int], *, write: bool, wait: bool = True
    ) -> AbstractContextManager[bool]:
        """Hold the index for reading or writing.

        Locks it against other processes' writes, then reloads it if it was loaded at another
        generation than ``current()`` (the record file's count of applied batches, read under
        the lock).

        Args:
            current: Returns the generation the index should be at.
            write: Whether the holder will :meth:`apply`.
            wait: Wait for another holder; ``False``: yield ``False`` at once if held.

        Yields:
            Whether the index is held.

        Raises:
            StoreBusyError: If another process holds it for longer than the lock timeout.
        """
        ...

    def generation(self) -> int:
        """The generation of the last batch applied to the index (0 if none)."""
        ...

    def apply(
        self,
        records: Sequence[Record],
        embeddings: Vectors,
        deleted: Sequence[str],
        *,
        generation: int,
    ) -> dict[str, str]:
        """Upsert records, delete ids, and record ``generation``.

        Call inside ``locked(..., write=True)``. ``embeddings`` has shape
        ``(len(records), dim)``.

        Returns:
            The ids the index refused, each with the reason (the others were applied).
        """
        ...

    def nearest(
        self,
        prefix: Namespace,
        *,
        embedding: Vector,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> Ranked:
        """Ids of the ``limit`` indexed records nearest to ``embedding``, with their cosine.

        Only records under ``prefix`` matching ``clauses`` that ``valid`` admits; call inside
        ``locked``. Liveness at ``now`` and validity may be left to the caller.
        """
        ...

    def count(self) -> int:
        """How many records the index holds."""
        ...

    def files_stamp(self) -> str | None:
        """The state of the index's files as they are now, read without opening the index.

        It changes whenever the files are written, replaced or removed: while it is the one
        recorded with :meth:`count` and :meth:`generation`, a local store takes those two from
        its record file at open instead of starting the index to read them.

        Returns:
            A string to compare for equality; ``None`` where the index cannot tell (no files
            of its own, or they are missing): the index is then checked at every open.
        """
        ...

    def discard(self) -> str | None:
        """Throw the index away, so that a new, empty one starts (hold the lock).

        Returns:
            Where its files were kept, or None if they were deleted.
        """
        ...

    def erase(self) -> bool:
        """Leave no value of a deleted record readable in the index's files (hold the lock).

        Called after an erase (``Backend.delete(..., erase=True)``), once the deletes were
        applied: whatever copies the index keeps of deleted records (a log, freed space) must
        go. An index that cannot do so in place throws itself away.

        Returns:
            ``True`` if the index is kept, less those copies; ``False`` if it was thrown away
            (it is new and empty: every record is indexed again).
        """
        ...

    def info(self) -> dict[str, Any] | None:
        """The store's settings as last given to :meth:`set_info`, or None."""
        ...

    def set_info(self, info: dict[str, Any]) -> None:
        """Keep a copy of the store's settings (a JSON object); call inside ``locked``."""
        ...

    def records(self) -> Iterator[tuple[Record, list[float]]]:
        """Every record the index holds with its embedding, for rebuilding a record file."""
        ...

    def close(self) -> None:
        """Release files and clients."""
        ...
