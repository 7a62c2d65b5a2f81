"""The local topology: a SQLite record file as the system of record, a derived vector index.

:class:`LocalBackend` serves every read from the record file
(:class:`~memvault.backends.sqlite.record_file.RecordFile`): get, count, list, recency, BM25,
and exact nearest-neighbour search of scopes up to :data:`EXACT_SCOPE` live records. Only a
larger scope asks the vector index (Chroma's HNSW, :class:`~memvault.backends.base.VectorIndex`),
whose hits are checked against the record file, and merged with an exact ranking of the
records the index has not caught up with.

A write commits to the record file only, with its ids in the outbox; the outbox is applied to
the index in batches (:meth:`LocalBackend.drain`) when it holds :data:`DRAIN_AT` ids, when the
store closes, or on demand. A crash loses nothing acknowledged: the outbox survives it.

An erase (``delete(..., erase=True)``) scrubs the record file, applies the outbox and then has
the index drop its own copies of what was erased (:meth:`VectorIndex.erase
<memvault.backends.base.VectorIndex.erase>`); the record file notes the erase until the index
is done, so a crash or a busy index only defers that to the next drain. What an erase
guarantees, and what it cannot reach: ``docs/erase.md``.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import time
import warnings
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvault.backends.base import Backend, VectorIndex
from memvault.backends.sqlite.record_file import RecordFile
from memvault.errors import BackendError, MemvaultWarning, StoreBusyError, StoreDamagedError
from memvault.model import (
    Change,
    Clauses,
    HistoryEntry,
    Namespace,
    Ranked,
    Record,
    SearchMode,
    Validity,
    Vector,
    Vectors,
    record_id,
    unit_vectors,
)

log = logging.getLogger(__name__)

_open_backends: weakref.WeakSet[LocalBackend] = weakref.WeakSet()
"""Local backends not yet closed: their outboxes are applied to the index at interpreter exit,
so a script or CLI command that never calls ``close()`` leaves the index complete."""


@atexit.register
def _close_at_exit() -> None:
    for backend in list(_open_backends):
        with contextlib.suppress(Exception):
            backend.close()


EXACT_SCOPE = 2_000
"""Largest scope (live records under the searched prefix) that dense search ranks exactly
from the record file's embeddings; larger scopes ask the vector index. Reading the vectors
costs time in proportion to the scope, and at 2,000 the exact path stays under a Chroma query
with a namespace ``where`` (``bench/speed.py``; figures in ``bench/README.md``)."""

DRAIN_AT = 1_000
"""Outbox size at which a write applies the outbox to the vector index. Until then the ids
it holds are ranked exactly, so searches never miss them."""

DRAIN_BATCH = 2_000
"""Ids applied to the vector index per step of :meth:`LocalBackend.drain`."""

_DAMAGED = ".damaged-"
"""What a record file moved aside as damaged has after its name, before the time."""


class LocalBackend(Backend):
    """A record file and an optional vector index derived from it (see the module docstring).

    Args:
        records_path: The SQLite record file, or ``None`` to keep it in memory.
        index: The vector index for scopes above ``exact_scope``, or ``None`` to rank every
            scope exactly.
        exact_scope: See :data:`EXACT_SCOPE`.
        drain_at: See :data:`DRAIN_AT` (``1``: apply every write at once).

    Raises:
        StoreBusyError: If another process holds the store for longer than the lock timeout.
    """

    search_modes: tuple[SearchMode, ...] = ("hybrid", "dense", "lexical")
    supports_compare_and_set = True
    returns_embeddings = True

    def __init__(
        self,
        records_path: Path | None,
        index: VectorIndex | None,
        *,
        exact_scope: int = EXACT_SCOPE,
        drain_at: int = DRAIN_AT,
    ) -> None:
        self.index = index
        self.exact_scope = exact_scope
        self.drain_at = drain_at
        self.records, set_aside = self._open_records(records_path)
        try:
            self._bring_in_step_with_index(set_aside)
        except BaseException:
            self.records.close()
            raise
        if index is not None:
            _open_backends.add(self)

    def _open_records(self, path: Path | None) -> tuple[RecordFile, str | None]:
        """Open the record file; a damaged one is moved aside (kept) and started anew.

        A damaged record file is rebuilt from the vector index, so it is moved aside only when
        the index can be read.

        Returns:
            The record file, and what became of a damaged one (``"it was unreadable (...) and
            was moved to ..."``), or None.

        Raises:
            StoreDamagedError: If the record file is damaged and the vector index cannot be
                read either (or there is none): neither can be rebuilt from the other, and
                nothing is moved.
        """
        try:
            return RecordFile(path), None
        except StoreDamagedError as error:
            if path is None:
                raise
            damage = error.__cause__ or error
            unreadable = self._index_unreadable()
            if unreadable is not None:
                raise StoreDamagedError(
                    f"the store folder {path.parent} is damaged: its record file {path.name} "
                    f"is unreadable ({damage}) and {unreadable}, so neither can be rebuilt "
                    "from the other; nothing was changed. Restore the folder from a backup, or "
                    "move it aside and import an export into a new store"
                ) from error
            moved = path.with_name(f"{path.name}{_DAMAGED}{time.strftime('%Y%m%dT%H%M%S')}")
            for suffix in ("", "-wal", "-shm"):
                source = Path(f"{path}{suffix}")
                if source.exists() or source.is_symlink():
                    os.replace(source, f"{moved}{suffix}")
            return RecordFile(path), f"it was unreadable ({damage}) and was moved to {moved}"

    def _index_unreadable(self) -> str | None:
        """Why the vector index cannot be read (``"there is no vector index"``), or None."""
        if self.index is None:
            return "there is no vector index"
        try:
            self.index.count()
        except BackendError as error:
            return f"so is its vector index ({error.__cause__ or error})"
        return None

    def _bring_in_step_with_index(self, set_aside: str | None) -> None:
        """Bring the record file and the index in step when a store opens.

        The record file is rebuilt from the index if it is new, emptied, older than it or was
        set aside; every record is queued for the index if the index lost records, cannot be
        opened (its files are moved aside first), or a write to it was cut off (a process
        killed during :meth:`drain`). Each repair is said in one :class:`MemvaultWarning`.
        What the index holds is read from it, or remembered (:meth:`_index_readings`).

        Args:
            set_aside: What became of a damaged record file this one replaces, or None.

        Raises:
            BackendError: If the index cannot be opened and the record file is kept in
                memory (there is nothing else to index again from).
        """
        records = self.records
        if self.index is None:
            if not records.built():
                records.mark_built()
            return
        lost = None
        if records.built() and records.applying():
            # A process was killed while it wrote the index (no live process is writing it:
            # opening holds the index's lock). Its files may be torn, which Chroma does not
            # always survive: start a new index from the record file.
            lost = "a write to it was cut off"
        else:
            try:
                indexed, generation = self._index_readings()
            except BackendError as error:
                if records.path is None:
                    raise  # the index is all there is: nothing to fill a new one from
                lost = f"it could not be opened ({error.__cause__ or error})"
        if lost is not None:
            aside = self.index.discard()
            queued = records.requeue_all(0)
            if not records.built():
                records.mark_built()
            where = f"moved to {aside}" if aside else "dropped"
            warnings.warn(
                f"the vector index of {records.path}: {lost}; it was {where} and is rebuilt from "
                f"the record file (all {queued} records queued to be indexed again)",
                MemvaultWarning,
                stacklevel=4,
            )
            return
        if not records.built() and indexed == 0:
            records.mark_built(generation)
            if set_aside is not None:
                warnings.warn(
                    f"the record file {records.path} starts empty: {set_aside}, and the vector "
                    "index held no records to rebuild it from",
                    MemvaultWarning,
                    stacklevel=4,
                )
            return
        reasons = []
        if set_aside is not None:
            reasons.append(set_aside)
        elif not records.built():
            reasons.append("it was never filled")
        elif records.applied_generation() < generation:
            reasons.append(
                f"it is older than the vector index (generation "
                f"{records.applied_generation()} < {generation})"
            )
        elif indexed > records.total() + records.outbox_size():
            reasons.append(f"it lacks records the index holds ({records.total()} < {indexed})")
        if not reasons:
            if indexed < records.total() - records.outbox_size() or (
                records.generation() > generation
            ):
                queued = records.requeue_all(generation)
                warnings.warn(
                    f"the vector index of {records.path} lacks records the record file holds; "
                    f"all {queued} are queued to be indexed again",
                    MemvaultWarning,
                    stacklevel=4,
                )
            return
        count = records.rebuild(self.index.records(), generation=generation)
        info = self.index.info()
        if info is not None:
            records.set_info(info)
        warnings.warn(
            f"the record file {records.path} was rebuilt from the vector index ({count} "
            f"records): {reasons[0]}",
            MemvaultWarning,
            stacklevel=4,
        )

    def _index_readings(self) -> tuple[int, int]:
        """How many records the index holds and its generation; call holding the index.

        Read from the index, or, while its files are as they were when last read
        (:meth:`VectorIndex.files_stamp <memvault.backends.base.VectorIndex.files_stamp>`),
        as the record file remembers them (:meth:`_remember_index`): the same two numbers
        without starting the index (Chroma's client takes seconds), so that a store opened to
        read never starts it.
        """
        assert self.index is not None
        remembered = self.records.index_stamp()
        files = self.index.files_stamp()
        if files is not None and remembered is not None and remembered["files"] == files:
            return int(remembered["count"]), int(remembered["generation"])
        indexed, generation = self.index.count(), self.index.generation()
        self._remember_index(indexed, generation)
        return indexed, generation

    def _remember_index(self, indexed: int, generation: int) -> None:
        """Remember what the index holds, with the state of its files (call holding it)."""
        assert self.index is not None
        files = self.index.files_stamp()  # after the reads: a client writes its files as it opens
        if files is not None:
            self.records.set_index_stamp(
                {"files": files, "count": indexed, "generation": generation}
            )

    # -- writes ---------------------------------------------------------------------------

    def upsert(
        self, records: Sequence[Record], embeddings: Vectors, *, now: float, change: Change
    ) -> list[Record]:
        """Commit records and their history to the record file; drain the outbox when full.

        A bulk write (``drain_at`` records or more) takes the index before its commit and
        applies the outbox before it lets it go, so that no other process's write finds the
        bulk's records in the outbox and applies them (see :meth:`_drain_if_full`). Taking
        the index may wait for another process that holds it (a drain, a large-scope dense
        search), before anything is written. See :meth:`Backend.upsert
        <memvault.backends.base.Backend.upsert>`.

        Raises:
            StoreBusyError: If a bulk write waited for the index past the lock timeout;
                nothing is written.
        """
        if not records and not change.imported_history:
            return []
        vectors = unit_vectors(embeddings) if records else np.zeros((0, 0), dtype=np.float32)
        if self.index is None or len(records) < self.drain_at:
            stored = self.records.upsert(records, vectors, now=now, change=change)
            self._drain_if_full(len(records))
            return stored
        with self.index.locked(self.records.generation, write=True):
            stored = self.records.upsert(records, vectors, now=now, change=change)
            self._drain_held()
        return stored

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

        ``expected`` is checked in that transaction. See :meth:`Backend.delete
        <memvault.backends.base.Backend.delete>`.

        With ``erase``, the record file is scrubbed
        (:meth:`~memvault.backends.sqlite.record_file.RecordFile.delete`), then the outbox is
        applied to the index and the index drops its copies of what was erased
        (:meth:`drain`). A record file set aside as damaged earlier (``*.damaged-*``) is not
        touched: it may hold records found nowhere else; a :class:`MemvaultWarning` names it.
        See ``docs/erase.md``.

        Raises:
            ConflictError: Where a record named in ``expected`` is absent, expired or of
                another ``updated_at``; nothing is deleted.
            StoreBusyError: With ``erase``, if another process held the index past the lock
                timeout: the record file is erased, and the index is scrubbed at the next
                drain by any process on the folder (a write that fills the outbox, a close,
                another erase).
            BackendError: Likewise, if the index failed.
        """
        if erase and self.index is not None:
            self.records.set_erase_pending(True)  # before: a crash leaves it to the next drain
        self.records.delete(ids, now=now, source=source, expected=expected, erase=erase)
        if not erase:
            self._drain_if_full(len(ids))
            return
        self._warn_of_damaged_copies()
        if self.index is None:
            return
        try:
            self.drain()
        except (StoreBusyError, BackendError) as error:
            raise type(error)(
                f"the record file {self.records.path or '(in memory)'} is erased, but not yet "
                f"the vector index: {error}; the next drain (a close, a write that fills the "
                "outbox, another erase) finishes it"
            ) from error

    def _warn_of_damaged_copies(self) -> None:
        """Warn of record files moved aside as damaged, which an erase cannot reach."""
        path = self.records.path
        if path is None:
            return
        copies = sorted(p.name for p in path.parent.glob(f"{path.name}{_DAMAGED}*"))
        if copies:
            warnings.warn(
                f"the store folder {path.parent} keeps damaged record files set aside "
                f"earlier ({', '.join(copies)}), which an erase does not touch: they may hold "
                "the erased memories, and records found nowhere else; delete them once you "
                "have recovered what you need from them",
                MemvaultWarning,
                stacklevel=4,
            )

    def _drain_if_full(self, written: int) -> None:
        """After a write of ``written`` ids: apply the outbox to the index if it is full.

        A write of ``drain_at`` ids or more (a bulk delete) applies the whole outbox, waiting
        for the index if another process holds it: its ids are most of what waits. A smaller
        write applies at most one :data:`DRAIN_BATCH` of it, and only if no other process
        holds the index: a single ``put`` beside a bulk write (e.g. an agent saving a turn
        while ``memvault ingest`` loads a history) never waits for the process that applies
        the bulk's records, nor applies them all itself (issue 28: it waited 18 s).
        """
        if self.index is None or not self.records.outbox_holds(self.drain_at):
            return
        if written < self.drain_at:
            self.drain(wait=False, limit=DRAIN_BATCH)
            return
        try:
            self.drain()
        except StoreBusyError as error:  # the write is committed; the next drain applies it
            log.warning("the outbox was left for the next writer: %s", error)

    def drain(self, *, wait: bool = True, limit: int | None = None) -> int:
        """Apply the outbox to the vector index.

        Records the index refuses are quarantined (logged; still found, by exact ranking).
        Then, if an erase is pending (the record file notes it until done), the index drops its
        copies of erased records (:meth:`_erase_from_index`).

        Args:
            wait: Wait for another process that holds the index; ``False``: leave the outbox
                to the next write or reader if the index is busy.
            limit: Apply at most about this many ids (whole :data:`DRAIN_BATCH` steps, at
                least one); ``None``: the whole outbox.

        Returns:
            How many outbox ids were applied.

        Raises:
            StoreBusyError: If ``wait`` and the index stays held past the lock timeout.
        """
        if self.index is None:
            return 0
        with self.index.locked(self.records.generation, write=True, wait=wait) as held:
            return self._drain_held(limit) if held else 0

    def _drain_held(self, limit: int | None = None) -> int:
        """:meth:`drain`'s work, holding the index for writing."""
        assert self.index is not None
        applied = self._apply_outbox(limit)
        erased = self.records.erase_pending()
        if erased and not self._erase_from_index():
            applied += self._apply_outbox()  # fill the new index now
        if applied or erased:
            self._remember_index(self.index.count(), self.index.generation())
        return applied

    def _apply_outbox(self, limit: int | None = None) -> int:
        """Apply the outbox to the index in batches (hold the index for writing).

        Args:
            limit: Stop once this many ids were applied (``None``: at the end).

        Returns:
            How many outbox ids were applied.
        """
        assert self.index is not None
        applied = 0
        while rows := self.records.outbox(DRAIN_BATCH):
            ids = [record_id for record_id, _ in rows]
            found = self.records.get(ids)
            vectors = self.records.vectors(ids)
            present = [(r, v) for r, v in zip(found, vectors) if r is not None and v is not None]
            deleted = [i for i, r in zip(ids, found) if r is None]
            generation = self.records.generation() + 1
            self.records.begin_apply(generation)
            refused = self.index.apply(
                [r for r, _ in present],
                [v for _, v in present],
                deleted,
                generation=generation,
            )
            self.records.mark_applied(rows, refused, generation=generation)
            for item_id, reason in refused.items():
                log.warning("the vector index refused %s (%s); ranked exactly", item_id, reason)
            applied += len(rows)
            if len(rows) < DRAIN_BATCH or (limit is not None and applied >= limit):
                break
        return applied

    def _erase_from_index(self) -> bool:
        """Have the index drop its copies of erased records, and clear the pending erase.

        Call holding the index for writing, with the outbox applied. An index that had to
        throw itself away (:meth:`VectorIndex.erase
        <memvault.backends.base.VectorIndex.erase>` returns ``False``) starts at a generation
        no process has loaded (so every other one reloads it), gets the store's settings
        back, and every record is queued for it; a :class:`MemvaultWarning` says so.

        Returns:
            Whether the index was kept.
        """
        assert self.index is not None
        kept = self.index.erase()
        if not kept:
            generation = self.records.generation() + 1
            self.records.begin_apply(generation)
            self.index.apply([], np.zeros((0, 0), dtype=np.float32), [], generation=generation)
            info = self.records.info()
            if info is not None:
                self.index.set_info(info)
            queued = self.records.requeue_all(generation)
            warnings.warn(
                f"the vector index of {self.records.path or '(in memory)'} could not be "
                f"scrubbed in place after an erase; it was thrown away and is rebuilt from the "
                f"record file (all {queued} records queued to be indexed again)",
                MemvaultWarning,
                stacklevel=5,
            )
        self.records.set_erase_pending(False)
        return kept

    # -- reads ----------------------------------------------------------------------------

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        return self.records.get(ids)

    def embeddings(self, ids: Sequence[str]) -> list[Vector | None]:
        """The unit embedding of each id from the record file, ``None`` where absent."""
        return list(self.records.vectors(ids))

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
        return self.records.recent(
            prefix, clauses=clauses, now=now, valid=valid, limit=limit, offset=offset
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
        """BM25 ranking from the record file's FTS5 index (scores ``> 0``)."""
        return self.records.lexical(
            query, prefix, clauses=clauses, now=now, valid=valid, limit=limit
        )

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
        """The ``limit`` live matching records nearest to ``embedding``, by cosine similarity.

        Exact from the record file for scopes of up to ``exact_scope`` live records (or any
        scope without an index); else the index's hits that the record file confirms (live,
        indexed as they are now), merged with an exact ranking of the records in the scope the
        index has not caught up with.
        """
        query = unit_vectors([embedding])[0]
        exact = self.records.nearest(
            prefix,
            embedding=query,
            clauses=clauses,
            now=now,
            valid=valid,
            limit=limit,
            within=None if self.index is None else self.exact_scope,
        )
        if exact is not None:
            return exact
        assert self.index is not None
        with self.index.locked(self.records.generation, write=False):
            lagging = self.records.unindexed(prefix)
            wanted = limit + len(lagging) + 1
            while True:
                hits = self.index.nearest(
                    prefix, embedding=query, clauses=clauses, now=now, valid=valid, limit=wanted
                )
                live = self.records.live([i for i, _ in hits], now=now, valid=valid)
                kept = [(i, s) for i, s in hits if i in live and i not in lagging]
                if len(hits) < wanted:
                    break
                # The index picks any of the records tied at its cut: ask for more until the
                # last hit scores below the last one kept, so every tie is there to go by id.
                if len(kept) >= limit and hits[-1][1] < kept[limit - 1][1]:
                    break
                wanted *= 4
        caught_up = self.records.nearest(
            prefix,
            embedding=query,
            clauses=clauses,
            now=now,
            valid=valid,
            limit=limit,
            within=None,
            only=lagging,
        )
        merged = sorted([*kept, *(caught_up or [])], key=lambda hit: (-hit[1], hit[0]))
        return merged[:limit]

    def count(self, prefix: Namespace, *, now: float) -> int:
        """How many live records lie under ``prefix``."""
        return self.records.count(prefix, now=now)

    def history(self, namespace: Namespace, key: str) -> list[HistoryEntry]:
        """Every change to ``(namespace, key)``, oldest first, from the record file."""
        return self.records.history(record_id(namespace, key))

    def history_under(self, prefix: Namespace) -> Iterator[HistoryEntry]:
        """The history of every key under ``prefix``, key by key, each oldest first."""
        return self.records.history_under(prefix)

    def namespaces(self, prefix: Namespace, *, now: float) -> list[Namespace]:
        """The distinct namespaces of live records under ``prefix``."""
        return self.records.namespaces(prefix, now=now)

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``, by id; expired ones too if ``now`` is None."""
        return self.records.scan(prefix, now=now)

    def get_info(self) -> dict[str, Any] | None:
        """The store's settings, kept in the record file."""
        return self.records.info()

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings in the record file and in the index.

        A record file rebuilt from the index takes them back from it.
        """
        self.records.set_info(info)
        if self.index is not None:
            with self.index.locked(self.records.generation, write=True):
                self.index.set_info(info)

    def close(self) -> None:
        """Apply the outbox to the index (unless another process holds it), then close both.

        Closing twice does nothing.
        """
        _open_backends.discard(self)
        if self.records.closed:
            return
        try:
            if self.index is not None:
                self.drain()
        except (StoreBusyError, StoreDamagedError) as error:
            log.warning("the outbox was left for the next writer: %s", error)
        finally:
            self.records.close()
            if self.index is not None:
                self.index.close()
