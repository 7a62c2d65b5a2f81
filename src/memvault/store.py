"""The memory store: one public surface over any backend, with async twins of every operation."""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from memvault.backends.base import Backend, Record, record_id
from memvault.embedding import Embedder, as_embedder
from memvault.errors import EmbedderMismatchError, ImportFormatError, InvalidArgumentError
from memvault.filters import Filter, normalize_filter
from memvault.items import MemoryItem, validate_value
from memvault.namespace import Namespace, validate_key, validate_namespace


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""Marks an option left out where ``None`` means something (``ttl=None``: never expire)."""

T = TypeVar("T")


def _in_thread(method: Callable[..., T]) -> Callable[..., Any]:
    """Make the async twin of a sync method: the same call, run in a worker thread."""

    @functools.wraps(method)
    async def twin(self: MemoryStore, *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(method, self, *args, **kwargs)

    twin.__name__ = twin.__qualname__ = f"a{method.__name__}"
    twin.__doc__ = (
        f"Async form of :meth:`{method.__name__}`: the same arguments, result and errors; the "
        "work runs in a worker thread so the event loop never blocks.\n"
    )
    return twin


def _check_ttl(ttl: Any, field: str = "ttl") -> float | None:
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not ttl > 0:
        raise InvalidArgumentError(
            f"{field} must be a positive number of seconds or None (never expire), got {ttl!r}"
        )
    return float(ttl)


def _check_count(value: Any, field: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidArgumentError(f"{field} must be an int >= {minimum}, got {value!r}")
    return value


def _item(record: Record, score: float | None = None) -> MemoryItem:
    return MemoryItem(
        namespace=record.namespace,
        key=record.key,
        value=record.value,
        created_at=record.created_at,
        updated_at=record.updated_at,
        expires_at=record.expires_at,
        score=score,
    )


class MemoryStore:
    """A persistent, namespaced memory store with semantic search.

    Items live under namespaces (tuples of strings such as ``("users", "alice")``) and keys.
    Each value is a dict whose ``"text"`` is embedded; the other entries are metadata that
    filters can test. Search and list cover a namespace and everything below it.

    Every operation has an async twin with an ``a`` prefix (``aput``, ``asearch``, ...) that
    runs in a worker thread; the sync forms work inside a running event loop too (Jupyter).

    Args:
        path: Folder of the default Chroma backend; defaults to ``$MEMVAULT_PATH``, else the
            per-user data folder (see :func:`memvault.backends.chroma.default_path`). Not
            allowed together with ``backend``.
        embedder: Any supported embedder (see :func:`memvault.embedding.as_embedder`); default
            :class:`~memvault.minilm.MiniLMEmbedder` (offline all-MiniLM-L6-v2).
        backend: A :class:`~memvault.backends.base.Backend`, e.g.
            :class:`~memvault.InMemoryBackend` or a :class:`~memvault.ChromaBackend` over a
            Chroma server client; default the embedded Chroma backend at ``path``.
        ttl: Default time to live of new items in seconds; ``None`` (default) never expires.

    Raises:
        EmbedderMismatchError: If the store was written with an embedder of another name or
            dimension.
        InvalidArgumentError: On a bad ``ttl``, or both ``path`` and ``backend``.

    Example:
        >>> store = MemoryStore("/tmp/memories")  # doctest: +SKIP
        >>> store.put(("users", "alice"), "tea", {"text": "Alice drinks tea"})  # doctest: +SKIP
        >>> store.search(("users",), query="what does alice drink?")[0].key  # doctest: +SKIP
        'tea'
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        embedder: Any = None,
        backend: Backend | None = None,
        ttl: float | None = None,
    ) -> None:
        if path is not None and backend is not None:
            raise InvalidArgumentError(
                "give either path (for the default Chroma backend) or backend, not both"
            )
        self.ttl = _check_ttl(ttl)
        if embedder is None:
            from memvault.minilm import MiniLMEmbedder

            embedder = MiniLMEmbedder()
        self.embedder: Embedder = as_embedder(embedder)
        if backend is None:
            from memvault.backends.chroma import ChromaBackend

            backend = ChromaBackend(path)
        self.backend: Backend = backend
        self._check_embedder()

    def _check_embedder(self) -> None:
        wanted = {"embedder": self.embedder.name, "dim": int(self.embedder.dim)}
        recorded = self.backend.get_info()
        if recorded is None:
            self.backend.set_info(wanted)
        elif (recorded.get("embedder"), recorded.get("dim")) != (wanted["embedder"], wanted["dim"]):
            raise EmbedderMismatchError(
                f"this store was written with embedder {recorded.get('embedder')!r} "
                f"(dim {recorded.get('dim')}), but {wanted['embedder']!r} (dim {wanted['dim']}) "
                "was given; open it with the same embedder, or export it and import into a new "
                "store to re-embed"
            )

    # -- writes ---------------------------------------------------------------------------

    def put(
        self, namespace: Namespace, key: str, value: dict[str, Any], /, *, ttl: Any = NOT_GIVEN
    ) -> MemoryItem:
        """Insert or replace (upsert) one item.

        Args:
            namespace: E.g. ``("users", "alice")``.
            key: Unique within the namespace.
            value: A dict with a non-empty ``"text"`` (embedded); the other entries are kept
                exactly (any JSON: nested dicts, lists, None).
            ttl: Seconds until the item expires; ``None`` never; default the store's ``ttl``.

        Returns:
            The stored item. Overwriting keeps ``created_at`` and moves ``updated_at``.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError: On
                bad input; nothing is written.
        """
        return self.put_many(namespace, [(key, value)], ttl=ttl)[0]

    def put_many(
        self,
        namespace: Namespace,
        items: Iterable[tuple[str, dict[str, Any]]],
        /,
        *,
        ttl: Any = NOT_GIVEN,
        timestamp: float | None = None,
    ) -> list[MemoryItem]:
        """Upsert several items in one namespace with one embedding call and one backend write.

        Args:
            namespace: E.g. ``("users", "alice")``.
            items: ``(key, value)`` pairs, values as in :meth:`put`; a key given twice keeps
                its last value.
            ttl: As in :meth:`put`, for every item; counted from now.
            timestamp: Unix seconds to record as the items' ``updated_at`` (and ``created_at``
                of new keys) instead of now, e.g. when loading a past conversation, so that
                recency order follows when things were said.

        Returns:
            The stored items, one per distinct key, in first-seen key order.

        Raises:
            InvalidNamespaceError, InvalidKeyError, InvalidValueError, InvalidArgumentError: If
                any input is bad; then nothing at all is written.
        """
        namespace = validate_namespace(namespace)
        expires_in = self.ttl if ttl is NOT_GIVEN else _check_ttl(ttl)
        batch: dict[str, dict[str, Any]] = {}
        for key, value in items:
            batch[validate_key(key)] = validate_value(value)
        if not batch:
            return []
        if timestamp is not None and (
            isinstance(timestamp, bool) or not isinstance(timestamp, (int, float))
        ):
            raise InvalidArgumentError(f"timestamp must be Unix seconds, got {timestamp!r}")
        now = time.time()
        expires_at = None if expires_in is None else now + expires_in
        written_at = now if timestamp is None else float(timestamp)
        existing = self.backend.get([record_id(namespace, key) for key in batch])
        records = [
            Record(
                namespace=namespace,
                key=key,
                value=value,
                created_at=old.created_at if old is not None and old.live(now) else written_at,
                updated_at=written_at,
                expires_at=expires_at,
            )
            for (key, value), old in zip(batch.items(), existing)
        ]
        embeddings = self.embedder.embed_documents([r.value["text"] for r in records])
        self.backend.upsert(records, embeddings)
        return [_item(r) for r in records]

    def delete(self, namespace: Namespace, key: str, /) -> None:
        """Delete one item; deleting an absent key does nothing.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.
        """
        self.backend.delete([record_id(validate_namespace(namespace), validate_key(key))])

    # -- reads ----------------------------------------------------------------------------

    def get(self, namespace: Namespace, key: str, /) -> MemoryItem | None:
        """The live item at ``(namespace, key)``, or ``None`` if absent or expired.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.
        """
        namespace, key = validate_namespace(namespace), validate_key(key)
        (record,) = self.backend.get([record_id(namespace, key)])
        return _item(record) if record is not None and record.live(time.time()) else None

    def search(
        self,
        namespace_prefix: Namespace = (),
        /,
        *,
        query: str | None = None,
        filter: Filter | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MemoryItem]:
        """Find live items in a namespace and everything below it.

        Args:
            namespace_prefix: E.g. ``("users",)`` covers ``("users", "alice")`` and
                ``("users", "bob", "work")`` but not ``("users2",)``; ``()`` covers all.
            query: Natural-language query. Given: items ranked by cosine similarity of
                embeddings, with ``score`` set. ``None`` or blank: most recently updated first.
            filter: Metadata filter on value fields (see :mod:`memvault.filters`), applied
                inside the query so ``limit`` live matches come back when they exist.
            limit: Most items to return, ``>= 1``.
            offset: Items to skip first, ``>= 0``.

        Returns:
            Up to ``limit`` items.

        Raises:
            InvalidNamespaceError, InvalidFilterError, InvalidArgumentError: On bad input.
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        clauses = normalize_filter(filter)
        _check_count(limit, "limit", minimum=1)
        _check_count(offset, "offset", minimum=0)
        if query is not None and not isinstance(query, str):
            raise InvalidArgumentError(f"query must be a str or None, got {type(query).__name__}")
        embedding = self.embedder.embed_query(query) if query and query.strip() else None
        hits = self.backend.query(
            prefix,
            embedding=embedding,
            clauses=clauses,
            now=time.time(),
            limit=limit,
            offset=offset,
        )
        return [_item(record, score) for record, score in hits]

    def list_namespaces(
        self,
        *,
        prefix: Namespace | None = None,
        suffix: Namespace | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Namespace]:
        """The namespaces that hold live items, sorted.

        Args:
            prefix: Only namespaces at or below this one.
            suffix: Only namespaces that end with these segments.
            max_depth: Cut longer namespaces to this many segments (duplicates merged), as
                LangGraph's ``BaseStore.list_namespaces`` does.
            limit: Most namespaces to return, ``>= 1``.
            offset: Namespaces to skip first, ``>= 0``.

        Returns:
            Namespace tuples in sorted order.

        Raises:
            InvalidNamespaceError, InvalidArgumentError: On bad input.
        """
        start = validate_namespace(prefix or (), allow_empty=True)
        end = validate_namespace(suffix or (), allow_empty=True)
        _check_count(limit, "limit", minimum=1)
        _check_count(offset, "offset", minimum=0)
        if max_depth is not None:
            _check_count(max_depth, "max_depth", minimum=1)
        found = set()
        for record in self.backend.scan(start, now=time.time()):
            namespace = record.namespace
            if end and namespace[len(namespace) - len(end) :] != end:
                continue
            found.add(namespace[:max_depth] if max_depth is not None else namespace)
        return sorted(found)[offset : offset + limit]

    def count(self, namespace_prefix: Namespace = (), /) -> int:
        """How many live items lie in a namespace and below it.

        Raises:
            InvalidNamespaceError: On a bad prefix.
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        return sum(1 for _ in self.backend.scan(prefix, now=time.time()))

    # -- upkeep ---------------------------------------------------------------------------

    def cleanup(self, max_age: float | None = None) -> int:
        """Delete expired items from disk (and with ``max_age``, items not updated for that long).

        Args:
            max_age: Seconds; items whose ``updated_at`` is older than ``now - max_age`` go too.

        Returns:
            How many items were deleted.

        Raises:
            InvalidArgumentError: If ``max_age`` is not a positive number.
        """
        age = _check_ttl(max_age, "max_age")
        now = time.time()
        doomed = [
            r.id
            for r in self.backend.scan((), now=None)
            if not r.live(now) or (age is not None and r.updated_at < now - age)
        ]
        self.backend.delete(doomed)
        return len(doomed)

    def export_jsonl(self, path: str | Path, /, namespace_prefix: Namespace = ()) -> int:
        """Write live items to a JSON Lines file, one :class:`MemoryItem` (without score) a line.

        Args:
            path: File to write (replaced if it exists).
            namespace_prefix: Only items at or below this namespace.

        Returns:
            How many items were written.
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        records = sorted(self.backend.scan(prefix, now=time.time()), key=lambda r: r.id)
        with open(path, "w", encoding="utf-8") as out:
            for record in records:
                line = _item(record).model_dump(mode="json", exclude={"score"})
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
        return len(records)

    def import_jsonl(self, path: str | Path, /) -> int:
        """Read items written by :meth:`export_jsonl`, keeping their times and TTLs.

        Every line is checked before anything is written, so a bad file changes nothing.
        Texts are embedded with this store's embedder; items already expired are skipped.

        Args:
            path: The JSON Lines file.

        Returns:
            How many items were written.

        Raises:
            ImportFormatError: If the file is missing or a line is not a valid item (the message
                names the line).
        """
        records = []
        try:
            with open(path, encoding="utf-8") as lines:
                for number, line in enumerate(lines, 1):
                    if not line.strip():
                        continue
                    try:
                        item = MemoryItem.model_validate_json(line)
                        namespace = validate_namespace(item.namespace)
                        records.append(
                            Record(
                                namespace=namespace,
                                key=validate_key(item.key),
                                value=validate_value(item.value),
                                created_at=item.created_at,
                                updated_at=item.updated_at,
                                expires_at=item.expires_at,
                            )
                        )
                    except ValueError as error:
                        first = str(error).splitlines()[0]
                        raise ImportFormatError(
                            f"{path}: line {number} is not a memvault item: {first}"
                        ) from None
        except OSError as error:
            raise ImportFormatError(f"cannot read {path}: {error.strerror}") from None
        now = time.time()
        records = [r for r in records if r.live(now)]
        if records:
            embeddings = self.embedder.embed_documents([r.value["text"] for r in records])
            self.backend.upsert(records, embeddings)
        return len(records)

    def close(self) -> None:
        """Release the backend's files and clients."""
        self.backend.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    aput = _in_thread(put)
    aput_many = _in_thread(put_many)
    adelete = _in_thread(delete)
    aget = _in_thread(get)
    asearch = _in_thread(search)
    alist_namespaces = _in_thread(list_namespaces)
    acount = _in_thread(count)
    acleanup = _in_thread(cleanup)
    aexport_jsonl = _in_thread(export_jsonl)
    aimport_jsonl = _in_thread(import_jsonl)
