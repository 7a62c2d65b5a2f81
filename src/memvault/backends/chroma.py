"""The default backend: Chroma, embedded on disk (``PersistentClient``) or any Chroma client.

All items live in one cosine-distance collection. Each record's Chroma metadata holds:

- ``mv.record``: the record as JSON (namespace, key, created and updated times in Unix
  seconds, the whole value), so it round-trips exactly; one key instead of one per part,
  since Chroma's write cost grows with the number of metadata keys;
- ``mv.ns.1``, ``mv.ns.2``, ...: the JSON array of the namespace's first 1, 2, ... segments,
  so a namespace prefix is one selective ``$eq``;
- ``mv.expires`` (Unix seconds; "never" is stored as :data:`NEVER` so that liveness is one
  ``$gt`` clause inside the query);
- ``u.<field>`` for every top-level str/int/float/bool field of the value, and ``h.<field>``
  (``True``), which filters use to test that the field exists: Chroma's ``$ne``/``$nin``
  otherwise match records that lack it. (A list of field names with ``$contains`` would do too,
  but Chroma 1.5.9 leaves array metadata behind when a collection is deleted, and a new
  collection's records inherit it.)

Chroma's own default embedding function downloads a model, so it is never used: the store
always passes embeddings. No Chroma ``documents`` are stored (the text is inside ``mv.record``),
which spares Chroma's own full-text index on every write; memvault's lexical index lives
beside the collection (:attr:`ChromaBackend.lexical_path`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvault.backends.base import Clauses, Record
from memvault.errors import InvalidArgumentError
from memvault.namespace import Namespace

NEVER = 1e18
"""``mv.expires`` of items that never expire (about 31.7 billion years from 1970)."""

DEFAULT_COLLECTION = "memvault"
PATH_ENV = "MEMVAULT_PATH"
_PAGE = 5000


def default_path() -> Path:
    """Where the embedded store lives by default.

    ``$MEMVAULT_PATH`` if set, else the per-user data folder from ``platformdirs``
    (``~/.local/share/memvault`` on Linux).
    """
    if os.environ.get(PATH_ENV):
        return Path(os.environ[PATH_ENV]).expanduser()
    from platformdirs import user_data_path

    return user_data_path("memvault")


def _field_value(value: Any) -> Any:
    """A value field as Chroma stores it: numbers as float (int and float compare alike)."""
    if isinstance(value, (bool, str)):
        return value
    return float(value)


def _metadata(record: Record) -> dict[str, Any]:
    fields = {
        name: _field_value(value)
        for name, value in record.value.items()
        if name != "text" and isinstance(value, (str, int, float, bool))
    }
    whole = {
        "ns": list(record.namespace),
        "key": record.key,
        "created": record.created_at,
        "updated": record.updated_at,
        "value": record.value,
    }
    metadata: dict[str, Any] = {
        "mv.record": json.dumps(whole, ensure_ascii=False),
        "mv.expires": NEVER if record.expires_at is None else record.expires_at,
    }
    metadata.update(
        {
            f"mv.ns.{depth}": json.dumps(list(record.namespace[:depth]), ensure_ascii=False)
            for depth in range(1, len(record.namespace) + 1)
        }
    )
    metadata.update({f"u.{name}": value for name, value in fields.items()})
    metadata.update({f"h.{name}": True for name in fields})
    return metadata


def _record(metadata: dict[str, Any]) -> Record:
    expires = metadata["mv.expires"]
    whole = json.loads(metadata["mv.record"])
    return Record(
        namespace=tuple(whole["ns"]),
        key=whole["key"],
        value=whole["value"],
        created_at=whole["created"],
        updated_at=whole["updated"],
        expires_at=None if expires >= NEVER else expires,
    )


def _by_type(values: list[Any]) -> list[list[Any]]:
    """Split an ``$in`` list into one-type lists, as Chroma requires (numbers as float)."""
    groups: dict[type, list[Any]] = {}
    for value in values:
        stored = _field_value(value)
        groups.setdefault(type(stored), []).append(stored)
    return list(groups.values())


def _clause(field: str, operator: str, operand: Any) -> dict[str, Any]:
    name = f"u.{field}"
    exists = {f"h.{field}": True}
    if operator in ("$in", "$nin"):
        groups = [{name: {operator: group}} for group in _by_type(operand)]
        if operator == "$in":
            return groups[0] if len(groups) == 1 else {"$or": groups}
        return {"$and": [exists, *groups]}
    if operator == "$ne":
        return {"$and": [exists, {name: {"$ne": _field_value(operand)}}]}
    return {name: {operator: _field_value(operand)}}


def where(prefix: Namespace, clauses: Clauses, now: float | None) -> dict[str, Any] | None:
    """The Chroma ``where`` for a namespace prefix, filter clauses and liveness at ``now``."""
    parts: list[dict[str, Any]] = []
    if prefix:
        parts.append({f"mv.ns.{len(prefix)}": json.dumps(list(prefix), ensure_ascii=False)})
    if now is not None:
        parts.append({"mv.expires": {"$gt": now}})
    parts.extend(_clause(*clause) for clause in clauses)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else {"$and": parts}


def _nearest_where(
    prefix: Namespace, clauses: Clauses, now: float
) -> tuple[dict[str, Any] | None, bool]:
    """The ``where`` of a nearest-neighbour query, and whether it left liveness out.

    With a namespace prefix and no filter, liveness is left out: a clause that nearly every
    record matches makes Chroma materialise them all. The caller checks liveness on the hits.
    """
    if prefix and not clauses:
        return where(prefix, [], None), True
    return where(prefix, clauses, now), False


class ChromaBackend:
    """Stores memories in a Chroma collection.

    Args:
        path: Folder of an embedded ``chromadb.PersistentClient`` (created if missing);
            default :func:`default_path`. Ignored when ``client`` is given.
        client: Any chromadb client, e.g. ``chromadb.HttpClient(host=..., port=...)`` for a
            Chroma server shared by several machines.
        collection: Collection name (3-512 characters); one store per collection.
        shared: Whether other processes or machines write the collection too. Then the store
            reads every record from Chroma and searches densely (its lexical index would only
            know this process's writes). Default: True for a client that talks to a server,
            False for an embedded one.

    Telemetry of the embedded client is off.

    Raises:
        InvalidArgumentError: If ``path`` is an existing file rather than a folder.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        client: Any = None,
        collection: str = DEFAULT_COLLECTION,
        shared: bool | None = None,
    ) -> None:
        import chromadb
        from chromadb.config import Settings

        if client is None:
            folder = Path(path).expanduser() if path is not None else default_path()
            if folder.exists() and not folder.is_dir():
                raise InvalidArgumentError(
                    f"store path {folder} is a file; give a folder (it is created if missing)"
                )
            folder.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(
                path=str(folder), settings=Settings(anonymized_telemetry=False)
            )
            self.path: Path | None = folder
        else:
            self.path = None
        self.client = client
        if shared is None:
            shared = "rust" not in client.get_settings().chroma_api_impl.lower()
        self.shared = shared
        self.collection = client.get_or_create_collection(
            collection, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )
        self.max_batch = int(client.get_max_batch_size())

    @property
    def lexical_path(self) -> Path | None:
        """Where the store keeps its lexical index for this collection.

        A SQLite file in the Chroma folder, or None (kept in memory) for a client passed in.
        """
        if self.path is None:
            return None
        return self.path / f"{self.collection.name}.lexical.sqlite3"

    def upsert(self, records: Sequence[Record], embeddings: Sequence[Sequence[float]]) -> None:
        """Insert or replace records by id, in batches of the client's ``max_batch_size``.

        Reads the records being replaced back from Chroma first (see :meth:`replace`).
        """
        previous = self.get([r.id for r in records])
        self.replace(records, embeddings, previous)

    def replace(
        self,
        records: Sequence[Record],
        embeddings: Sequence[Sequence[float]],
        previous: Sequence[Record | None],
    ) -> None:
        """Upsert records whose previous versions the caller already knows, sparing a read.

        Chroma merges the metadata of an upsert into the existing record's, so metadata keys
        the previous version had and the new one lacks are set to None, which removes them.
        memvault's store calls this with the previous records from its lexical index.

        Args:
            records: The records to write.
            embeddings: Shape ``(len(records), dim)``.
            previous: For each record, the version it replaces, or None if its id is new.
        """
        vectors = np.asarray(embeddings, dtype=np.float32).reshape(len(records), -1)
        for start in range(0, len(records), self.max_batch):
            chunk = records[start : start + self.max_batch]
            metadatas = [_metadata(r) for r in chunk]
            for metadata, old in zip(metadatas, previous[start : start + len(chunk)]):
                if old is not None:
                    for name in _metadata(old).keys() - metadata.keys():
                        metadata[name] = None
            self.collection.upsert(
                ids=[r.id for r in chunk],
                embeddings=vectors[start : start + len(chunk)],
                metadatas=metadatas,
            )

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        found: dict[str, Record] = {}
        for start in range(0, len(ids), self.max_batch):
            got = self.collection.get(
                ids=list(ids[start : start + self.max_batch]), include=["metadatas"]
            )
            found.update({i: _record(m) for i, m in zip(got["ids"], got["metadatas"])})
        return [found.get(i) for i in ids]

    def embeddings(self, ids: Sequence[str]) -> list[list[float] | None]:
        """The stored embeddings by id, each of shape ``(dim,)``, ``None`` where absent."""
        found: dict[str, list[float]] = {}
        for start in range(0, len(ids), self.max_batch):
            got = self.collection.get(
                ids=list(ids[start : start + self.max_batch]), include=["embeddings"]
            )
            found.update(
                {
                    i: np.asarray(e, dtype=np.float32).tolist()
                    for i, e in zip(got["ids"], got["embeddings"])
                }
            )
        return [found.get(i) for i in ids]

    def delete(self, ids: Sequence[str]) -> None:
        """Delete records by id; absent ids are ignored."""
        for start in range(0, len(ids), self.max_batch):
            self.collection.delete(ids=list(ids[start : start + self.max_batch]))

    def query(
        self,
        prefix: Namespace,
        *,
        embedding: Sequence[float] | None,
        clauses: Clauses,
        now: float,
        limit: int,
        offset: int = 0,
    ) -> list[tuple[Record, float | None]]:
        """Live matching records, nearest first or most recently updated first.

        With an embedding the score is ``1 - cosine distance``; without, it is None.

        Every nearest-neighbour query carries a ``where``, which makes Chroma search exactly.
        With a namespace prefix and no filter it first runs on the prefix alone (a liveness
        clause that nearly every record matches makes Chroma materialise them all); only if an
        expired record came back does it run again with liveness inside the query, so ``limit``
        live hits still come back when they exist.
        """
        if embedding is None:
            records = list(self._pages(where(prefix, clauses, now)))
            records.sort(key=lambda r: (-r.updated_at, r.id))
            return [(r, None) for r in records[offset : offset + limit]]
        vector = np.asarray(embedding, dtype=np.float32).reshape(1, -1)
        condition, narrowed = _nearest_where(prefix, clauses, now)
        hits = self._nearest(vector, condition, offset + limit)
        if narrowed and any(not record.live(now) for record, _ in hits):
            hits = self._nearest(vector, where(prefix, clauses, now), offset + limit)
        return hits[offset:]

    def nearest(
        self,
        prefix: Namespace,
        *,
        embedding: Sequence[float],
        clauses: Clauses,
        now: float,
        limit: int,
    ) -> list[tuple[str, float]]:
        """Ids of the records nearest to ``embedding``, liveness NOT applied, with scores.

        For callers that hold the records themselves, as memvault's store does in its lexical
        index: fetching only ids and distances from Chroma is much cheaper than its metadata.
        The caller must check liveness and fall back to :meth:`query` if an id has expired.

        Args:
            prefix: Namespace prefix; ``()`` covers all. Liveness is applied after all when
                there is no prefix (a ``where`` keeps Chroma's search exact) or a filter.
            embedding: Shape ``(dim,)``.
            clauses: Filter clauses, applied inside the query.
            now: Unix seconds, for the liveness clause (see ``prefix``).
            limit: Most ids to return.

        Returns:
            ``(id, 1 - cosine distance)`` pairs, most similar first, ties by id.
        """
        condition, _ = _nearest_where(prefix, clauses, now)
        found = self.collection.query(
            query_embeddings=np.asarray(embedding, dtype=np.float32).reshape(1, -1),
            n_results=limit,
            where=condition,
            include=["distances"],
        )
        hits = [(i, 1.0 - d) for i, d in zip(found["ids"][0], found["distances"][0])]
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits

    def _nearest(
        self, vector: np.ndarray, condition: dict[str, Any] | None, n: int
    ) -> list[tuple[Record, float | None]]:
        found = self.collection.query(
            query_embeddings=vector,
            n_results=n,
            where=condition,
            include=["metadatas", "distances"],
        )
        hits = [(_record(m), 1.0 - d) for m, d in zip(found["metadatas"][0], found["distances"][0])]
        hits.sort(key=lambda hit: (-hit[1], hit[0].id))  # ties in the same order every time
        return hits

    def _pages(self, condition: dict[str, Any] | None) -> Iterator[Record]:
        offset = 0
        while True:
            page = self.collection.get(
                where=condition, limit=_PAGE, offset=offset, include=["metadatas"]
            )
            yield from (_record(m) for m in page["metadatas"])
            if len(page["ids"]) < _PAGE:
                return
            offset += _PAGE

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``; expired ones too if ``now`` is None."""
        return self._pages(where(prefix, [], now))

    def get_info(self) -> dict[str, Any] | None:
        """The recorded settings (collection metadata without Chroma's own keys), or None."""
        metadata = self.collection.metadata or {}
        info = {k[3:]: v for k, v in metadata.items() if k.startswith("mv.")}
        return info or None

    def set_info(self, info: dict[str, Any]) -> None:
        """Record settings in the collection metadata (str, int, float or bool values)."""
        self.collection.modify(metadata={f"mv.{k}": v for k, v in info.items()})

    def close(self) -> None:
        """Close the embedded client this backend opened; a client passed in stays open."""
        if self.path is not None:
            self.client.close()
