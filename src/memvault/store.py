"""The memory store: one public surface over any backend, with async twins of every operation."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from memvault.backends.base import Backend, Record, record_id
from memvault.embedding import DEFAULT_EMBEDDER, Embedder, resolve_embedder
from memvault.errors import (
    EmbedderMismatchError,
    ImportFormatError,
    InvalidArgumentError,
    validation_problem,
)
from memvault.filters import Filter, normalize_filter
from memvault.items import MemoryItem, ScoreType, validate_value
from memvault.lexical import LexicalIndex, indexed_text
from memvault.namespace import Namespace, is_utf8, validate_key, validate_namespace
from memvault.twins import async_twin


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""Marks an option left out where ``None`` means something (``ttl=None``: never expire)."""

MAX_SECONDS = 1e12
"""Upper bound of TTLs and timestamps, in seconds (about 31,700 years)."""
MAX_COUNT = 1_000_000
"""Upper bound of ``limit`` and ``offset``."""

SearchMode = Literal["hybrid", "dense", "lexical"]
SEARCH_MODES = ("hybrid", "dense", "lexical")
DEFAULT_SEARCH_MODE: SearchMode = "hybrid"
"""The default of ``search(mode=...)``: hybrid won on LoCoMo (see ``bench/README.md``)."""

RRF_K = 10
"""Rank constant of reciprocal rank fusion (Cormack et al., SIGIR 2009): an item at rank ``r``
(1-based) of a list adds ``weight / (RRF_K + r)``. Chosen on the LoCoMo benchmark: on the same
indexed texts the paper's 60 (weight 1) gave recall@10 0.717, 10 (weight 2) 0.768; chosen
leave-one-conversation-out, the held-out conversations reach 0.765 (``bench/README.md``)."""

LEXICAL_WEIGHT = 2.0
"""Weight of the lexical list in hybrid fusion (the dense list weighs 1), from the LoCoMo
benchmark, where BM25 alone beats MiniLM alone."""

FUSION_POOL = 30
"""Hybrid search fuses this many candidates from each index; pages reaching deeper fuse 4, 16,
... times as many, so pages that end within the same pool size never overlap or skip."""


def _check_ttl(ttl: Any, field: str = "ttl") -> float | None:
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl < MAX_SECONDS:
        raise InvalidArgumentError(
            f"{field} must be a positive, finite number of seconds below {MAX_SECONDS:.0e}, or "
            f"None (never expire), got {ttl!r}"
        )
    return float(ttl)


def _check_count(value: Any, field: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_COUNT:
        raise InvalidArgumentError(
            f"{field} must be an int from {minimum} to {MAX_COUNT}, got {value!r}"
        )
    return value


def _check_mode(mode: Any) -> SearchMode:
    if mode not in SEARCH_MODES:
        raise InvalidArgumentError(
            f"mode must be one of {', '.join(map(repr, SEARCH_MODES))}, got {mode!r}"
        )
    return mode


def fuse(
    ranked: Sequence[Sequence[tuple[Record, Any]]], weights: Sequence[float], *, k: int = RRF_K
) -> list[tuple[Record, float]]:
    """Reciprocal rank fusion of ranked lists of records.

    Args:
        ranked: Lists of ``(record, score)``, best first; scores are ignored.
        weights: One weight per list.
        k: The rank constant (see :data:`RRF_K`).

    Returns:
        Every record found, by fused score ``sum(weight / (k + rank))``, best first; ties by id.
    """
    scores: dict[str, float] = {}
    records: dict[str, Record] = {}
    for hits, weight in zip(ranked, weights):
        for rank, (record, _) in enumerate(hits, 1):
            scores[record.id] = scores.get(record.id, 0.0) + weight / (k + rank)
            records.setdefault(record.id, record)
    order = sorted(scores, key=lambda i: (-scores[i], i))
    return [(records[i], scores[i]) for i in order]


def _item(
    record: Record, score: float | None = None, score_type: ScoreType | None = None
) -> MemoryItem:
    return MemoryItem(
        namespace=record.namespace,
        key=record.key,
        value=record.value,
        created_at=record.created_at,
        updated_at=record.updated_at,
        expires_at=record.expires_at,
        score=score,
        score_type=score_type if score is not None else None,
    )


class MemoryStore:
    """A persistent, namespaced memory store with semantic search.

    Items live under namespaces (tuples of strings such as ``("users", "alice")``) and keys.
    Each value is a dict whose ``"text"`` is embedded; the other entries are metadata that
    filters can test. Search and list cover a namespace and everything below it.

    Every operation has an async twin with an ``a`` prefix (``aput``, ``asearch``, ...) that
    runs in a worker thread; the sync forms work inside a running event loop too (Jupyter).

    Beside the backend's vector index the store keeps a lexical (BM25) index on SQLite FTS5
    (:class:`~memvault.lexical.LexicalIndex`), next to the Chroma files (in memory for other
    backends, rebuilt from the backend when the store opens). It holds every record too, so
    ``get``, ``count``, ``list_namespaces`` and searches without a query are answered from it;
    the backend stays the source of truth, and opening a store repairs the lexical index after
    a crash between the two writes.

    Args:
        path: Folder of the default Chroma backend; defaults to ``$MEMVAULT_PATH``, else the
            per-user data folder (see :func:`memvault.backends.chroma.default_path`). Not
            allowed together with ``backend``.
        embedder: An embedder object or string (see :func:`memvault.embedding.resolve_embedder`):
            ``"minilm"`` (default; offline all-MiniLM-L6-v2), ``"<provider>:<model>"`` through
            LangChain's ``init_embeddings`` (e.g. ``"openai:text-embedding-3-small"``), or a
            LangChain, LlamaIndex or Chroma embedder.
        backend: A :class:`~memvault.backends.base.Backend`, e.g.
            :class:`~memvault.InMemoryBackend` or a :class:`~memvault.ChromaBackend` over a
            Chroma server client; default the embedded Chroma backend at ``path``.
        ttl: Default time to live of new items in seconds; ``None`` (default) never expires.
        search_mode: Default ``mode`` of :meth:`search`: :data:`DEFAULT_SEARCH_MODE`
            (``"hybrid"``), or ``"dense"`` on a shared backend (a Chroma server), which keeps no
            lexical index. ``"dense"`` gives cosine-similarity scores, as LangGraph's stores do.

    Raises:
        EmbedderMismatchError: If the store was written with an embedder of another name or
            dimension.
        InvalidArgumentError: On a bad ``ttl``, both ``path`` and ``backend``, or an unknown
            embedder.
        EmbedderUnavailableError: If an embedder string needs a package that is not installed.

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
        embedder: Any = DEFAULT_EMBEDDER,
        backend: Backend | None = None,
        ttl: float | None = None,
        search_mode: SearchMode | None = None,
    ) -> None:
        if path is not None and backend is not None:
            raise InvalidArgumentError(
                "give either path (for the default Chroma backend) or backend, not both"
            )
        self.ttl = _check_ttl(ttl)
        self.embedder: Embedder = resolve_embedder(embedder)
        if backend is None:
            from memvault.backends.chroma import ChromaBackend

            backend = ChromaBackend(path)
        self.backend: Backend = backend
        self._check_embedder()
        # The lexical index mirrors the records of one machine. A backend that other machines
        # write too (a Chroma server) is read directly instead, and searched densely.
        self.lexical: LexicalIndex | None = None
        if not getattr(backend, "shared", False):
            self.lexical = LexicalIndex(getattr(backend, "lexical_path", None))
            self.lexical.repair(backend)
        self.default_mode: SearchMode = _check_mode(
            (DEFAULT_SEARCH_MODE if self.lexical else "dense")
            if search_mode is None
            else search_mode
        )
        if self.lexical is None and self.default_mode != "dense":
            raise InvalidArgumentError(
                f"search_mode={search_mode!r} needs the lexical index, which a shared backend "
                "(a Chroma server) does not keep; use 'dense'"
            )

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
            isinstance(timestamp, bool)
            or not isinstance(timestamp, (int, float))
            or not 0 <= timestamp < MAX_SECONDS
        ):
            raise InvalidArgumentError(
                f"timestamp must be Unix seconds from 0 to {MAX_SECONDS:.0e}, got {timestamp!r}"
            )
        now = time.time()
        expires_at = None if expires_in is None else now + expires_in
        written_at = now if timestamp is None else float(timestamp)
        existing = self._records([record_id(namespace, key) for key in batch])
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
        self._write(records, existing)
        return [_item(r) for r in records]

    def _write(self, records: list[Record], previous: list[Record | None]) -> None:
        """Embed and write records to the backend, then to the lexical index (marked first).

        ``previous`` (the versions replaced, from the lexical index) spares a backend with a
        ``replace`` method, such as :meth:`ChromaBackend.replace
        <memvault.backends.chroma.ChromaBackend.replace>`, reading them back.
        """
        texts = [indexed_text(r.value) for r in records]
        embeddings = self.embedder.embed_documents(texts)
        if self.lexical:
            self.lexical.mark_pending([r.id for r in records])
        replace = getattr(self.backend, "replace", None)
        if replace is not None:
            replace(records, embeddings, previous)
        else:
            self.backend.upsert(records, embeddings)
        if self.lexical:
            self.lexical.upsert(records, texts, embeddings)

    def _remove(self, ids: list[str]) -> None:
        """Delete ids from the backend, then from the lexical index (marked first)."""
        if not ids:
            return
        if self.lexical:
            self.lexical.mark_pending(ids)
        self.backend.delete(ids)
        if self.lexical:
            self.lexical.delete(ids)

    def _records(self, ids: list[str]) -> list[Record | None]:
        """Records by id (expired too) from the lexical mirror, or from a shared backend."""
        return self.lexical.get(ids) if self.lexical else self.backend.get(ids)

    def delete(self, namespace: Namespace, key: str, /) -> None:
        """Delete one item; deleting an absent key does nothing.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.
        """
        self._remove([record_id(validate_namespace(namespace), validate_key(key))])

    # -- reads ----------------------------------------------------------------------------

    def get(self, namespace: Namespace, key: str, /) -> MemoryItem | None:
        """The live item at ``(namespace, key)``, or ``None`` if absent or expired.

        Raises:
            InvalidNamespaceError, InvalidKeyError: On a bad namespace or key.
        """
        namespace, key = validate_namespace(namespace), validate_key(key)
        (record,) = self._records([record_id(namespace, key)])
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
        mode: SearchMode | None = None,
    ) -> list[MemoryItem]:
        """Find live items in a namespace and everything below it.

        Args:
            namespace_prefix: E.g. ``("users",)`` covers ``("users", "alice")`` and
                ``("users", "bob", "work")`` but not ``("users2",)``; ``()`` covers all.
            query: Natural-language query, ranked as ``mode`` says, with ``score`` set.
                ``None`` or blank: most recently updated first, ``score`` None.
            filter: Metadata filter on value fields (see :mod:`memvault.filters`), applied
                inside the query so ``limit`` live matches come back when they exist.
            limit: Most items to return, ``>= 1``.
            offset: Items to skip first, ``>= 0``.
            mode: How a query ranks: ``"dense"`` by cosine similarity of embeddings (score
                in ``[-1, 1]``); ``"lexical"`` by BM25 over the indexed words (score > 0;
                items sharing no word with the query are not found); ``"hybrid"`` fuses both
                by reciprocal rank fusion (score ``sum(weight / (RRF_K + rank))``, see
                :data:`RRF_K` and :data:`LEXICAL_WEIGHT`). Namespace, liveness and filter
                apply the same in every mode. Default: the store's ``search_mode``.

        Returns:
            Up to ``limit`` items.

        Raises:
            InvalidNamespaceError, InvalidFilterError, InvalidArgumentError: On bad input.
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        clauses = normalize_filter(filter)
        _check_count(limit, "limit", minimum=1)
        _check_count(offset, "offset", minimum=0)
        if query is not None and (not isinstance(query, str) or not is_utf8(query)):
            raise InvalidArgumentError(
                f"query must be a UTF-8 str or None, got {type(query).__name__} {query!r:.80}"
            )
        mode = _check_mode(self.default_mode if mode is None else mode)
        now = time.time()
        if not (query and query.strip()):
            if self.lexical is None:
                hits = self.backend.query(
                    prefix, embedding=None, clauses=clauses, now=now, limit=limit, offset=offset
                )
                return [_item(record) for record, _ in hits]
            found = self.lexical.recent(
                prefix, clauses=clauses, now=now, limit=limit, offset=offset
            )
            return [_item(record) for record in found]
        if self.lexical is None and mode != "dense":
            raise InvalidArgumentError(
                f"mode={mode!r} needs the lexical index, which a shared backend (a Chroma "
                "server) does not keep; use mode='dense'"
            )
        if mode == "lexical":
            found = self.lexical.search(
                query, prefix, clauses=clauses, now=now, limit=limit, offset=offset
            )
            return [_item(record, score, "bm25") for record, score in found]
        if mode == "dense":
            hits = self._dense(query, prefix, clauses, now, limit + offset)
            return [_item(record, score, "cosine") for record, score in hits[offset:]]
        pool = FUSION_POOL
        while pool < limit + offset:
            pool *= 4
        lexical = self.lexical.search(query, prefix, clauses=clauses, now=now, limit=pool)
        dense = self._dense(query, prefix, clauses, now, pool)
        fused = fuse([dense, lexical], [1.0, LEXICAL_WEIGHT])
        return [_item(record, score, "rrf") for record, score in fused[offset : offset + limit]]

    def _dense(
        self, query: str, prefix: Namespace, clauses: list, now: float, limit: int
    ) -> list[tuple[Record, float | None]]:
        """The ``limit`` live records nearest to the query's embedding, with their scores.

        A namespace of up to :data:`~memvault.lexical.EXACT_SCOPE` live records is searched
        exactly from the embeddings the lexical index keeps, at a cost that follows its size,
        not the store's (:meth:`LexicalIndex.nearest <memvault.lexical.LexicalIndex.nearest>`).
        Larger ones go to the backend's index: a backend with a ``nearest`` method (ids and
        scores only, such as :meth:`ChromaBackend.nearest
        <memvault.backends.chroma.ChromaBackend.nearest>`) is asked for ids, and the records
        come from the lexical index, which holds them too; if one has expired, the backend's
        full ``query`` answers instead.
        """
        embedding = self.embedder.embed_query(query)
        if self.lexical is not None:
            exact = self.lexical.nearest(
                prefix, embedding=embedding, clauses=clauses, now=now, limit=limit
            )
            if exact is not None:
                return list(exact)
        nearest = getattr(self.backend, "nearest", None)
        if nearest is not None and self.lexical is not None:
            found = nearest(prefix, embedding=embedding, clauses=clauses, now=now, limit=limit)
            records = self.lexical.get([record_id for record_id, _ in found])
            if all(r is not None and r.live(now) for r in records):
                return [(r, score) for r, (_, score) in zip(records, found)]
        return self.backend.query(
            prefix, embedding=embedding, clauses=clauses, now=now, limit=limit
        )

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
        now = time.time()
        held = (
            self.lexical.namespaces(start, now=now)
            if self.lexical
            else {record.namespace for record in self.backend.scan(start, now=now)}
        )
        for namespace in held:
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
        if self.lexical is None:
            return sum(1 for _ in self.backend.scan(prefix, now=time.time()))
        return self.lexical.count(prefix, now=time.time())

    # -- upkeep ---------------------------------------------------------------------------

    def expired(self, max_age: float | None = None) -> list[MemoryItem]:
        """What :meth:`cleanup` would delete now, oldest first (expired ones included).

        Args:
            max_age: Seconds; items whose ``updated_at`` is older than ``now - max_age`` count
                too (for an ingested turn, ``updated_at`` is when it was said).

        Returns:
            The items, by ``updated_at`` then key.

        Raises:
            InvalidArgumentError: If ``max_age`` is not a positive number.
        """
        age = _check_ttl(max_age, "max_age")
        now = time.time()
        doomed = [
            r
            for r in self.backend.scan((), now=None)
            if not r.live(now) or (age is not None and r.updated_at < now - age)
        ]
        doomed.sort(key=lambda r: (r.updated_at, r.id))
        return [_item(r) for r in doomed]

    def cleanup(self, max_age: float | None = None) -> int:
        """Delete expired items from disk (and with ``max_age``, items not updated for that long).

        Args:
            max_age: Seconds; items whose ``updated_at`` is older than ``now - max_age`` go too.

        Returns:
            How many items were deleted (those :meth:`expired` lists).

        Raises:
            InvalidArgumentError: If ``max_age`` is not a positive number.
        """
        doomed = [record_id(item.namespace, item.key) for item in self.expired(max_age)]
        self._remove(doomed)
        return len(doomed)

    def export_jsonl(self, path: str | Path, /, namespace_prefix: Namespace = ()) -> int:
        """Write live items to a JSON Lines file, one :class:`MemoryItem` (without score) a line.

        Args:
            path: File to write (replaced if it exists).
            namespace_prefix: Only items at or below this namespace.

        Returns:
            How many items were written.

        Raises:
            InvalidArgumentError: If ``path`` cannot be written (a missing folder, a folder).
        """
        prefix = validate_namespace(namespace_prefix, allow_empty=True)
        records = sorted(self.backend.scan(prefix, now=time.time()), key=lambda r: r.id)
        try:
            with open(path, "w", encoding="utf-8") as out:
                for record in records:
                    line = _item(record).model_dump(mode="json", exclude={"score", "score_type"})
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
        except OSError as error:
            raise InvalidArgumentError(
                f"cannot write {path}: {error.strerror}; give a file path in a folder that exists"
            ) from None
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
                    except ValidationError as error:
                        problem = validation_problem(error, "the line")
                        raise ImportFormatError(
                            f"{path}: line {number} is not a memvault item: {problem}"
                        ) from None
                    except ValueError as error:
                        raise ImportFormatError(
                            f"{path}: line {number} is not a memvault item: {error}"
                        ) from None
        except UnicodeDecodeError:
            raise ImportFormatError(f"{path} is not UTF-8 text; export files are UTF-8") from None
        except OSError as error:
            raise ImportFormatError(f"cannot read {path}: {error.strerror}") from None
        now = time.time()
        records = [r for r in records if r.live(now)]
        if records:
            self._write(records, self._records([r.id for r in records]))
        return len(records)

    def close(self) -> None:
        """Release the backend's and the lexical index's files and clients."""
        if self.lexical:
            self.lexical.close()
        self.backend.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    aput = async_twin(put)
    aput_many = async_twin(put_many)
    adelete = async_twin(delete)
    aget = async_twin(get)
    asearch = async_twin(search)
    alist_namespaces = async_twin(list_namespaces)
    acount = async_twin(count)
    aexpired = async_twin(expired)
    acleanup = async_twin(cleanup)
    aexport_jsonl = async_twin(export_jsonl)
    aimport_jsonl = async_twin(import_jsonl)
