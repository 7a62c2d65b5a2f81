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
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import threading
import time
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
    StoreBusyError,
    StoreClosedError,
    StoreDamagedError,
)
from memvault.model import Clauses, Namespace, Ranked, Record, Validity, Vector, Vectors

T = TypeVar("T")
_SEGMENT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""Chroma names each segment's folder by its UUID."""

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

    ``chroma.sqlite3`` with any journal of it, and a folder per segment (the HNSW index).
    """
    return [
        entry
        for entry in sorted(folder.iterdir())
        if entry.name.startswith("chroma.sqlite3")
        or (entry.is_dir() and _SEGMENT.fullmatch(entry.name))
    ]


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
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None
        self._forget_system()
        self.version += 1
        self.loaded.clear()
        aside = self.folder / f"chroma.damaged-{time.strftime('%Y%m%dT%H%M%S')}"
        aside.mkdir(exist_ok=True)
        for entry in _chroma_entries(self.folder):
            os.replace(entry, aside / entry.name)
        return aside

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
        with chroma_errors(self.where), contextlib.suppress(ValueError, KeyError):
            self._client.delete_collection(self.name)
        self._collection = None
        return None

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
        return refused

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
        InvalidArgumentError: If ``path`` is a file, or both ``path`` and ``client`` are given.
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
            folder = Path(path).expanduser() if path is not None else default_path()
            if folder.exists() and not folder.is_dir():
                raise InvalidArgumentError(
                    f"store path {folder} is a file; give a folder (it is created if missing)"
                )
            folder.mkdir(parents=True, exist_ok=True)
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
