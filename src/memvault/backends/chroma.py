"""The default backend: a store folder with a SQLite record file and an embedded Chroma index.

:class:`ChromaBackend` is a :class:`~memvault.backends.local.LocalBackend` whose vector index
is :class:`ChromaIndex`: one cosine-distance collection of an embedded Chroma
(``PersistentClient``) in the same folder, holding each record's embedding and metadata (see
:mod:`memvault.backends.chroma_schema`). The record file ``<collection>.records.sqlite3`` is
the system of record; the collection is derived from it and carries a copy of each record, from
which a lost or damaged record file is rebuilt.

Many processes may open one folder. Chroma's embedded mode keeps its HNSW index in each
process's memory and does not see another process's writes, and two processes writing it at
once corrupt it; so every use of the collection holds an OS file lock on
``<folder>/memvault.lock`` (``filelock``), one process writes at a time, and a process whose
copy is older than the record file's generation reopens its client before reading.

Chroma's own default embedding function downloads a model, so it is never used: the store
always passes embeddings. No Chroma ``documents`` are stored, which spares Chroma's own
full-text index on every write.

An erase (``MemoryStore.delete(..., erase=True)``) also reaches Chroma's files
(:meth:`ChromaIndex.erase`): what it guarantees and what it cannot reach is in
``docs/erase.md``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import sqlite3
import struct
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from memvault.backends.chroma_schema import (
    DEFAULT_COLLECTION,
    PAGE,
    check_collection,
    metadata_of,
    nearest_where,
    record_of,
)
from memvault.backends.local import DRAIN_AT, EXACT_SCOPE, LocalBackend
from memvault.errors import (
    BackendError,
    InvalidArgumentError,
    MemvaultError,
    MemvaultWarning,
    StoreBusyError,
    StoreClosedError,
    StoreDamagedError,
)
from memvault.model import Clauses, Namespace, Ranked, Record, Validity, Vector, Vectors

T = TypeVar("T")
_SEGMENT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""Chroma names each segment's folder by its UUID."""

_DATABASE_FILES = {f"chroma.sqlite3{suffix}" for suffix in ("", "-journal", "-wal", "-shm")}
"""Chroma's database in a store folder, and SQLite's journals of it."""
_SET_ASIDE = "chroma.damaged-"
"""How the folders holding a damaged index's files begin (``_Folder.set_aside``)."""

_LOG_COLUMNS = {"seq_id", "operation", "topic", "id", "metadata"}
"""The columns of Chroma's write-ahead log (``embeddings_queue`` in ``chroma.sqlite3``) that
:func:`_scrub_log` reads and writes."""

_DELETE = 3
"""The ``operation`` of a delete in Chroma's write-ahead log (Chroma's ``Operation``: add 0,
update 1, upsert 2, delete 3)."""

_HNSW_HEADER = struct.Struct("=iQQQQ")
"""The start of an HNSW segment's ``header.bin`` as Chroma's hnswlib writes it (native byte
order): persistence version, level-0 offset, capacity, element count, bytes per element."""
_HNSW_VERSION = 1

PATH_ENV = "MEMVAULT_PATH"
LOCK_TIMEOUT = 120.0
"""Seconds a process waits for another that holds a store folder's Chroma index (writing a
batch, or opening the folder) before :class:`~memvault.errors.StoreBusyError`."""


def default_path() -> Path:
    """Where the embedded store lives by default.

    ``$MEMVAULT_PATH`` if set, else the per-user data folder from ``platformdirs``
    (``~/.local/share/memvault`` on Linux).
    """
    if os.environ.get(PATH_ENV):
        return Path(os.environ[PATH_ENV]).expanduser()
    from platformdirs import user_data_path

    return user_data_path("memvault")


def store_folder(path: str | Path | None, *, option: str = "path") -> Path:
    """The folder of an embedded store, created if missing.

    Args:
        path: The folder (``~`` expanded), or ``None`` for :func:`default_path`.
        option: What the caller calls ``path``, named in the error: ``"path"`` for
            :class:`~memvault.MemoryStore`, ``"--path"`` for the command line.

    Returns:
        The folder, which exists.

    Raises:
        InvalidArgumentError: If ``path`` is a file, or the folder cannot be created (a file
            on the way such as ``/etc/passwd/store``, a folder one may not write such as
            ``/sys``, ``/proc``), cannot be looked at (no permission on a parent), or the path
            holds a NUL; names the folder, why, and the fix.
    """
    folder = Path(path) if path is not None else default_path()
    try:
        folder = folder.expanduser()
        if folder.exists() and not folder.is_dir():
            raise InvalidArgumentError(
                f"{option} {folder} is a file; give a folder (it is created if missing)"
            )
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError, RuntimeError) as error:
        # OSError: no permission to look or to create; ValueError: a NUL in the path;
        # RuntimeError: a "~user" that names no user.
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise InvalidArgumentError(
            f"{option} {folder}: the store folder cannot be created ({why}); give "
            f"{option} a folder you may write (it is created if missing)"
        ) from None
    return folder


def _record_file(folder: Path, collection: str) -> Path:
    """Where a store folder keeps the record file of ``collection``."""
    return folder / f"{collection}.records.sqlite3"


@contextlib.contextmanager
def chroma_errors(where: str) -> Iterator[None]:
    """Errors of Chroma's client leave as :class:`~memvault.errors.BackendError` (cause chained).

    Args:
        where: Names the store or server in the message, e.g. ``"the store folder /data"``.
    """
    try:
        yield
    except MemvaultError:
        raise
    except Exception as error:
        raise BackendError(
            f"Chroma failed in {where}: {type(error).__name__}: {error}; if it persists, close "
            "every process using the store and open it again (the index is rebuilt from the "
            "record file when it is lost)"
        ) from error


def _chroma_calls(method: Callable[..., T]) -> Callable[..., T]:
    """Run an index method under :func:`chroma_errors`."""

    @functools.wraps(method)
    def translated(self: ChromaIndex, *args: Any, **kwargs: Any) -> T:
        with chroma_errors(self.where):
            return method(self, *args, **kwargs)

    return translated


def _chroma_entries(folder: Path) -> list[Path]:
    """Chroma's own files in a store folder, sorted.

    ``chroma.sqlite3`` with any journal of it (not a record file whose collection name
    begins with ``chroma.sqlite3``), and a folder per segment (the HNSW index).
    """
    return [
        entry
        for entry in sorted(folder.iterdir())
        if entry.name in _DATABASE_FILES or (entry.is_dir() and _SEGMENT.fullmatch(entry.name))
    ]


def _connect_database(database: Path) -> sqlite3.Connection:
    """A connection of our own to Chroma's database, in autocommit, waiting out other writers.

    Works beside Chroma's open clients, this process's and other processes' (they only keep
    connections to the file); use it holding the folder's lock.
    """
    return sqlite3.connect(str(database), isolation_level=None, timeout=LOCK_TIMEOUT)


def _scrub_log(db: sqlite3.Connection) -> bool:
    """Empty the metadata of every record Chroma's write-ahead log holds after its deletion.

    Chroma keeps every add in its write-ahead log (table ``embeddings_queue``) with the
    record's metadata (``mv.record`` holds its whole value), after the record is deleted, until
    every segment has persisted past it. Every log row followed by a delete of the same id in
    the same collection gets empty metadata (``'{}'``), in one transaction. Its id, operation
    and vector stay: Chroma replays the rows a segment has not persisted (the HNSW index needs
    the vectors), and replaying such a row still adds the id and then deletes it, as before.
    Call after the deletes were applied, then :func:`_rewrite`.

    Args:
        db: A connection to ``chroma.sqlite3`` (:func:`_connect_database`).

    Returns:
        ``False`` (nothing changed) if the log is not laid out as this function expects
        (another Chroma version).
    """
    columns = {row[1] for row in db.execute("PRAGMA table_info(embeddings_queue)")}
    if not _LOG_COLUMNS.issubset(columns):
        return False
    db.execute("PRAGMA secure_delete = ON")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "CREATE TEMP TABLE last_delete AS SELECT topic, id, max(seq_id) AS seq "
            "FROM embeddings_queue WHERE operation = ? GROUP BY topic, id",
            (_DELETE,),
        )
        db.execute("CREATE INDEX temp.last_delete_id ON last_delete (topic, id)")
        db.execute(
            "UPDATE embeddings_queue SET metadata = '{}' "
            "WHERE operation != ? AND metadata IS NOT '{}' AND seq_id < "
            "(SELECT d.seq FROM last_delete d "
            "WHERE d.topic = embeddings_queue.topic AND d.id = embeddings_queue.id)",
            (_DELETE,),
        )
        db.execute("DROP TABLE temp.last_delete")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return True


def _rewrite(db: sqlite3.Connection) -> None:
    """Rewrite Chroma's database so that no deleted row stays readable in it.

    SQLite leaves deleted rows in the free space of its pages (here: the metadata segment's
    rows of deleted records, the log rows :func:`_scrub_log` emptied). ``VACUUM`` with
    ``secure_delete`` on rewrites the file from its live rows, and
    ``wal_checkpoint(TRUNCATE)`` empties a write-ahead log if the file has one (Chroma's uses
    a rollback journal, which SQLite deletes at the end of each transaction). Works whatever
    the tables are.

    Args:
        db: A connection to ``chroma.sqlite3`` (:func:`_connect_database`), no transaction
            open.
    """
    db.execute("PRAGMA secure_delete = ON")
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _segments(folder: Path) -> set[Path]:
    """The HNSW segment folders of a Chroma database in ``folder``."""
    if not folder.is_dir():
        return set()
    return {e for e in folder.iterdir() if e.is_dir() and _SEGMENT.fullmatch(e.name)}


def _clear_unused(segment: Path) -> None:
    """Zero what an HNSW segment's files hold past their elements.

    Chroma's hnswlib writes a new index's ``data_level0.bin`` and ``length.bin`` whole, as long
    as its capacity, from memory it never cleared (``malloc``): past the elements added they
    hold whatever the process's heap held before, which may be text it handled (records'
    metadata). An element added later is cleared and written in its place, so the bytes past
    the element count in ``header.bin`` are the only ones left; they are zeroed (a file that
    is zero there already is not written). A header of another layout is left alone, with a
    :class:`~memvault.errors.MemvaultWarning`.

    Args:
        segment: A segment folder (:func:`_segments`); call holding the folder's lock.

    Raises:
        OSError: If a file cannot be read or written.
    """
    try:
        header = (segment / "header.bin").read_bytes()[: _HNSW_HEADER.size]
    except FileNotFoundError:
        return  # not written yet
    fields = _HNSW_HEADER.unpack(header) if len(header) == _HNSW_HEADER.size else None
    if fields is None or fields[0] != _HNSW_VERSION or fields[1] != 0 or fields[4] == 0:
        warnings.warn(
            f"the HNSW files of Chroma's index in {segment} are of a layout memvault does not "
            "know; their unused space was not cleared and may hold fragments of erased "
            "memories (see docs/erase.md)",
            MemvaultWarning,
            stacklevel=2,
        )
        return
    _, _, _, elements, stride = fields
    for name, used in (("data_level0.bin", elements * stride), ("length.bin", elements * 4)):
        path = segment / name
        if not path.is_file():
            continue
        with open(path, "r+b") as file:
            file.seek(used)
            while chunk := file.read(1 << 20):
                if chunk.count(0) != len(chunk):
                    file.seek(-len(chunk), os.SEEK_CUR)
                    file.write(bytes(len(chunk)))


def _settings() -> Any:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False)


class _Folder:
    """One process's embedded Chroma client for a folder, with the folder's file lock.

    Shared by every index on the folder: reopening the client (after another process wrote)
    restarts Chroma's in-process state for the folder, which every index on it then sees.
    """

    _open: dict[Path, _Folder] = {}
    _registry_lock = threading.Lock()

    def __init__(self, folder: Path) -> None:
        from filelock import FileLock

        self.folder = folder
        self.file_lock = FileLock(str(folder / "memvault.lock"))
        self.thread_lock = threading.RLock()
        self.users = 0
        self.version = 0
        self.loaded: dict[str, int] = {}
        self.client: Any = None

    @classmethod
    def acquire(cls, folder: Path) -> _Folder:
        with cls._registry_lock:
            handle = cls._open.get(folder)
            if handle is None:
                handle = cls._open[folder] = _Folder(folder)
            handle.users += 1
            return handle

    def release(self) -> None:
        with self._registry_lock:
            self.users -= 1
            if self.users == 0:
                del self._open[self.folder]
                with self.thread_lock:
                    if self.client is not None:
                        self.client.close()
                        self.client = None

    @contextlib.contextmanager
    def locked(self, *, wait: bool = True) -> Iterator[bool]:
        """Hold the folder against other threads and processes."""
        from filelock import Timeout

        with self.thread_lock:
            try:
                self.file_lock.acquire(timeout=LOCK_TIMEOUT if wait else 0)
            except Timeout:
                if not wait:
                    yield False
                    return
                raise StoreBusyError(
                    f"another process held the store folder {self.folder} for "
                    f"{LOCK_TIMEOUT:.0f} s (writing its vector index); retry, or stop it"
                ) from None
            except OSError as error:
                raise StoreDamagedError(
                    f"the lock file {self.file_lock.lock_file} cannot be used ({error}); remove "
                    "whatever is in its place (memvault recreates it)"
                ) from error
            try:
                yield True
            finally:
                self.file_lock.release()

    def connect(self) -> Any:
        """The folder's client, opened on first use (hold the lock)."""
        if self.client is None:
            import chromadb

            try:
                self.client = chromadb.PersistentClient(path=str(self.folder), settings=_settings())
            except Exception:
                self._forget_system()
                raise
            self.version += 1
        return self.client

    def _forget_system(self) -> None:
        """Drop Chroma's process-wide system for the folder.

        One that failed to start stays cached (keyed by the folder path) and breaks every later
        client of the folder.
        """
        from chromadb.api.shared_system_client import SharedSystemClient

        for cache in (
            SharedSystemClient._identifier_to_system,
            SharedSystemClient._identifier_to_refcount,
        ):
            cache.pop(str(self.folder), None)

    def set_aside(self) -> Path:
        """Move Chroma's files into a new folder ``chroma.damaged-<time>`` (hold the lock).

        ``chroma.sqlite3`` and the segment folders go, so that a new, empty index starts.

        Returns:
            The folder they were moved to.
        """
        self._stop()
        aside = self.folder / f"{_SET_ASIDE}{time.strftime('%Y%m%dT%H%M%S')}"
        aside.mkdir(exist_ok=True)
        for entry in _chroma_entries(self.folder):
            os.replace(entry, aside / entry.name)
        return aside

    def remove(self) -> None:
        """Delete Chroma's files, so that a new, empty index starts (hold the lock).

        ``chroma.sqlite3`` and the segment folders go, as with :meth:`set_aside`.
        """
        self._stop()
        for entry in _chroma_entries(self.folder):
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    def remove_set_aside(self) -> None:
        """Delete the folders :meth:`set_aside` made (hold the lock)."""
        for aside in sorted(self.folder.glob(f"{_SET_ASIDE}*")):
            if aside.is_dir():
                shutil.rmtree(aside)

    def _stop(self) -> None:
        """Close the client and forget Chroma's state, before its files go."""
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None
        self._forget_system()
        self.version += 1
        self.loaded.clear()

    def reload(self) -> None:
        """Reopen the client, so that it reads what other processes wrote (hold the lock).

        A client not opened yet (a store that opened without starting its index) reads
        what is on disk when it opens.
        """
        import chromadb

        if self.client is None:
            self.loaded.clear()
            return
        with chroma_errors(f"the store folder {self.folder}"):
            self.client.close()
            self.client = chromadb.PersistentClient(path=str(self.folder), settings=_settings())
        self.version += 1
        self.loaded.clear()


class ChromaIndex:
    """A :class:`~memvault.backends.base.VectorIndex` on a Chroma collection.

    Args:
        folder: Folder of an embedded ``PersistentClient`` (shared with other processes under
            a file lock), or ``None`` with ``client``.
        client: A Chroma client used by this process alone (e.g. ``EphemeralClient``), instead
            of ``folder``.
        collection: Collection name (3-512 characters).
    """

    def __init__(
        self,
        folder: Path | None = None,
        *,
        client: Any = None,
        collection: str = DEFAULT_COLLECTION,
    ) -> None:
        self.name = check_collection(collection)
        self.where = (
            f"the store folder {folder}" if folder is not None else f"collection {collection!r}"
        )
        self._folder = _Folder.acquire(folder) if folder is not None else None
        self._client = client
        self._lock = threading.RLock()
        self._collection: Any = None
        self._version = -1
        self._closed = False

    @_chroma_calls
    def _current(self) -> Any:
        """The collection, fetched again after the folder's client was reopened."""
        if self._closed:
            raise StoreClosedError("the store was closed; open a new MemoryStore")
        version = self._folder.version if self._folder is not None else 0
        if self._collection is None or version != self._version:
            client = self._folder.connect() if self._folder is not None else self._client
            self._collection = client.get_or_create_collection(
                self.name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
            )
            self._version = version
            self.max_batch = int(client.get_max_batch_size())
        return self._collection

    @contextlib.contextmanager
    def locked(
        self, current: Callable[[], int], *, write: bool, wait: bool = True
    ) -> Iterator[bool]:
        """Lock the folder (or the index, with a client of this process alone).

        Then reload the client if another process applied a batch since it was loaded.
        """
        del write  # one lock serves readers and writers alike: filelock is exclusive
        if self._folder is None:
            with self._lock:
                yield True
            return
        with self._folder.locked(wait=wait) as held:
            if not held:
                yield False
                return
            generation = current()
            loaded = self._folder.loaded.get(self.name)
            if loaded is not None and loaded != generation:
                self._folder.reload()
            self._folder.loaded[self.name] = generation
            yield True

    def discard(self) -> str | None:
        """Start a new, empty collection (hold :meth:`opening`).

        A folder's Chroma files are moved aside (kept); a client's collection is deleted.
        """
        if self._folder is not None:
            return str(self.set_aside())
        self._delete_collection()
        return None

    def _delete_collection(self) -> None:
        """Delete the collection through Chroma (a missing one is no error).

        Every index of this process on the folder fetches the new collection at its next use.
        """
        with chroma_errors(self.where), contextlib.suppress(ValueError, KeyError):
            client = self._folder.connect() if self._folder is not None else self._client
            client.delete_collection(self.name)
        self._collection = None
        if self._folder is not None:
            self._folder.version += 1

    def set_aside(self) -> Path:
        """Move the folder's Chroma files aside (hold :meth:`opening`); see ``_Folder``."""
        assert self._folder is not None
        self._collection = None
        return self._folder.set_aside()

    def opening(self) -> contextlib.AbstractContextManager[bool]:
        """Hold the folder while a store opens (creating files may race)."""
        if self._folder is None:
            return contextlib.nullcontext(True)
        return self._folder.locked()

    def loaded_at(self, generation: int) -> None:
        """Record that the client in use reflects ``generation`` (hold the lock)."""
        if self._folder is not None:
            self._folder.loaded[self.name] = generation

    @_chroma_calls
    def generation(self) -> int:
        """The generation of the last batch applied (collection metadata ``mv.generation``)."""
        metadata = self._current().metadata or {}
        return int(metadata.get("mv.generation", 0))

    @_chroma_calls
    def apply(
        self,
        records: Sequence[Record],
        embeddings: Vectors,
        deleted: Sequence[str],
        *,
        generation: int,
    ) -> dict[str, str]:
        """Replace records, delete ids, and record ``generation``.

        Records are deleted first (an upsert would merge stale metadata keys); a batch Chroma
        refuses is retried one record at a time, and the records it still refuses are
        returned with the reason.
        """
        collection = self._current()
        segments = self._segments()
        refused: dict[str, str] = {}
        ids = [r.id for r in records]
        for start in range(0, len(ids) + len(deleted), self.max_batch):
            collection.delete(ids=[*ids, *deleted][start : start + self.max_batch])
        vectors = (
            np.asarray(embeddings, dtype=np.float32).reshape(len(records), -1) if records else None
        )
        for start in range(0, len(records), self.max_batch):
            assert vectors is not None
            chunk = list(records[start : start + self.max_batch])
            try:
                collection.add(
                    ids=[r.id for r in chunk],
                    embeddings=vectors[start : start + len(chunk)],
                    metadatas=[metadata_of(r) for r in chunk],
                )
            except Exception:  # noqa: BLE001 - find the records Chroma refuses
                for offset, record in enumerate(chunk):
                    try:
                        collection.add(
                            ids=[record.id],
                            embeddings=vectors[start + offset : start + offset + 1],
                            metadatas=[metadata_of(record)],
                        )
                    except Exception as error:  # noqa: BLE001
                        refused[record.id] = f"{type(error).__name__}: {error}"
        metadata = {k: v for k, v in (collection.metadata or {}).items() if k.startswith("mv.")}
        collection.modify(metadata={**metadata, "mv.generation": generation})
        self.loaded_at(generation)
        for segment in self._segments() - segments:  # started by this batch
            _clear_unused(segment)
        return refused

    def erase(self) -> bool:
        """Leave no value of a deleted record readable in Chroma's files (hold the lock).

        Call after the deletes were applied (:meth:`apply`). In a store folder, the folders of
        damaged index files set aside earlier are deleted (they hold old records). Then
        Chroma's database (``chroma.sqlite3``, of the folder or of a persistent client of this
        process's; a client in memory has none) is scrubbed: its write-ahead log's copies of
        deleted records are emptied (:func:`_scrub_log`) and the file rewritten
        (:func:`_rewrite`); and the unused space of the HNSW segment files, which may hold
        text from the heap of the process that created them, is zeroed (:func:`_clear_unused`;
        a segment this index starts later is cleared by :meth:`apply`). If the log is not laid
        out as expected (another Chroma version), the collection is deleted instead (Chroma
        deletes its log rows with it), the file rewritten, and a new, empty collection
        starts; if the file is damaged, Chroma's files in the folder are deleted. See
        ``docs/erase.md``.

        Returns:
            ``True`` if the index is kept as it was, less the deleted records' values;
            ``False`` if it was thrown away: it is new and empty (no generation, no settings),
            every record must be indexed again.

        Raises:
            StoreBusyError: If another process kept Chroma's database busy past
                :data:`LOCK_TIMEOUT`; call again.
            BackendError: If SQLite or the file system failed otherwise (e.g. the disk is
                full), or Chroma failed to delete the collection; call again.
        """
        database = self._database()
        where = database.parent if database is not None else self.where
        try:
            if self._folder is not None:
                self._folder.remove_set_aside()
            if database is None or not database.is_file():
                return True
            with contextlib.closing(_connect_database(database)) as db:
                kept = _scrub_log(db)
            if not kept:
                self._delete_collection()
            with contextlib.closing(_connect_database(database)) as db:
                _rewrite(db)
            for segment in sorted(self._segments()):
                _clear_unused(segment)
            return kept
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise StoreBusyError(
                    f"another process kept Chroma's database {database} busy for "
                    f"{LOCK_TIMEOUT:.0f} s; retry, or stop it"
                ) from error
            raise BackendError(
                f"cannot erase deleted records from Chroma's files in {where}: {error}"
            ) from error
        except sqlite3.DatabaseError as error:  # damaged
            if self._folder is None:
                raise BackendError(
                    f"cannot erase deleted records from Chroma's database {database}: {error}"
                ) from error
            self._collection = None
            self._folder.remove()
            return False
        except OSError as error:
            raise BackendError(
                f"cannot erase deleted records from Chroma's files in {where}: {error}"
            ) from error

    def _segments(self) -> set[Path]:
        """The HNSW segment folders beside Chroma's database (none if it lives in memory)."""
        database = self._database()
        return set() if database is None else _segments(database.parent)

    def _database(self) -> Path | None:
        """Chroma's database file (``chroma.sqlite3``), or None if Chroma keeps it in memory."""
        if self._folder is not None:
            return self._folder.folder / "chroma.sqlite3"
        with chroma_errors(self.where):
            settings = self._client.get_settings()
        if not settings.is_persistent or not settings.persist_directory:
            return None
        return Path(settings.persist_directory) / "chroma.sqlite3"

    @_chroma_calls
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
        """Ids nearest to ``embedding`` with ``1 - cosine distance``.

        With a prefix and no filter, liveness and validity are left to the caller (a clause
        nearly every record matches makes Chroma materialise them all).
        """
        collection = self._current()
        condition, _ = nearest_where(prefix, clauses, now, valid)
        found = collection.query(
            query_embeddings=np.asarray(embedding, dtype=np.float32).reshape(1, -1),
            n_results=max(1, min(limit, collection.count() or 1)),
            where=condition,
            include=["distances"],
        )
        hits = [(i, 1.0 - d) for i, d in zip(found["ids"][0], found["distances"][0])]
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits

    @_chroma_calls
    def info(self) -> dict[str, Any] | None:
        """The settings in the collection metadata, or None.

        ``mv.info``; or ``mv.embedder`` and ``mv.dim`` as memvault wrote them before.
        """
        metadata = self._current().metadata or {}
        if "mv.info" in metadata:
            return dict(json.loads(metadata["mv.info"]))
        if "mv.embedder" in metadata:
            return {"embedder": metadata["mv.embedder"], "dim": metadata.get("mv.dim")}
        return None

    @_chroma_calls
    def set_info(self, info: dict[str, Any]) -> None:
        """Keep the settings in the collection metadata, beside ``mv.generation``."""
        collection = self._current()
        metadata = {k: v for k, v in (collection.metadata or {}).items() if k.startswith("mv.")}
        collection.modify(metadata={**metadata, "mv.info": json.dumps(info)})

    @_chroma_calls
    def count(self) -> int:
        """How many records the collection holds."""
        return int(self._current().count())

    def files_stamp(self) -> str | None:
        """Device, inode, size and change times of each of Chroma's files in the folder.

        Chroma keeps each collection's metadata (``mv.generation``) and record count in
        ``chroma.sqlite3`` and its HNSW index in a folder per segment, and rewrites them as a
        client opens; a file's change time (``st_ctime_ns``) cannot be set back, so a written
        or replaced file shows. ``None`` with a client instead of a folder, or when
        ``chroma.sqlite3`` is missing.
        """
        if self._folder is None:
            return None
        folder = self._folder.folder
        if not (folder / "chroma.sqlite3").is_file():
            return None
        parts = []
        try:
            for entry in _chroma_entries(folder):
                for path in sorted(entry.iterdir()) if entry.is_dir() else [entry]:
                    stat = path.stat()
                    parts.append(
                        f"{path.relative_to(folder)} {stat.st_dev} {stat.st_ino} "
                        f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}"
                    )
        except FileNotFoundError:  # removed while listed (a journal): not a state to keep
            return None
        return "; ".join(parts)

    def records(self) -> Iterator[tuple[Record, list[float]]]:
        """Every record (from ``mv.record``) with its embedding, a page at a time."""
        collection = self._current()
        offset = 0
        while True:
            with chroma_errors(self.where):
                page = collection.get(
                    limit=PAGE, offset=offset, include=["metadatas", "embeddings"]
                )
            for metadata, embedding in zip(page["metadatas"], page["embeddings"]):
                yield record_of(metadata), np.asarray(embedding, dtype=np.float32).tolist()
            if len(page["ids"]) < PAGE:
                return
            offset += PAGE

    def close(self) -> None:
        """Release this process's share of the folder's client."""
        if self._closed:
            return
        self._closed = True
        if self._folder is not None:
            self._folder.release()


class ChromaBackend(LocalBackend):
    """The default backend: a folder with a SQLite record file and an embedded Chroma index.

    The record file is the system of record; the Chroma collection is its vector index (see
    the module docstring).

    Args:
        path: The store folder (created if missing); default :func:`default_path`.
        client: Instead of a folder, a Chroma client that this process alone uses (e.g.
            ``chromadb.EphemeralClient()``); the record file is then kept in memory. For a
            Chroma server shared by machines use :class:`~memvault.ChromaServerBackend`.
        collection: Collection name (3-512 characters); one store per collection.
        exact_scope: Scopes of up to this many live records are ranked exactly from the
            record file (see :data:`~memvault.backends.local.EXACT_SCOPE`).
        drain_at: Outbox size at which a write applies it to the Chroma index (see
            :data:`~memvault.backends.local.DRAIN_AT`).

    Raises:
        InvalidArgumentError: If ``path`` is a file or cannot be created
            (:func:`store_folder`), or both ``path`` and ``client`` are given.
        StoreBusyError: If another process holds the folder past the lock timeout.
    """

    @staticmethod
    def exists(path: str | Path | None = None, *, collection: str = DEFAULT_COLLECTION) -> bool:
        """Whether a store folder holds a store (its record file or its Chroma index).

        Opens nothing and creates nothing: for a caller that must not make a store where a
        path was mistyped (the CLI's reading commands).

        Args:
            path: The store folder; default :func:`default_path`.
            collection: The store's collection.

        Returns:
            ``True`` if the record file or Chroma's database is there.
        """
        folder = Path(path).expanduser() if path is not None else default_path()
        return _record_file(folder, collection).is_file() or (folder / "chroma.sqlite3").is_file()

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        client: Any = None,
        collection: str = DEFAULT_COLLECTION,
        exact_scope: int = EXACT_SCOPE,
        drain_at: int = DRAIN_AT,
    ) -> None:
        if client is not None and path is not None:
            raise InvalidArgumentError("give ChromaBackend a path or a client, not both")
        folder: Path | None = None
        if client is None:
            folder = store_folder(path)
        self.path = folder
        index = ChromaIndex(folder, client=client, collection=collection)
        records = _record_file(folder, collection) if folder is not None else None
        try:
            with index.opening():
                super().__init__(records, index, exact_scope=exact_scope, drain_at=drain_at)
                index.loaded_at(self.records.generation())
        except BaseException:
            index.close()
            raise
