"""An in-process backend on numpy, for tests and ephemeral use: nothing is written to disk."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from memvault.backends.base import Clauses, Record
from memvault.filters import matches
from memvault.namespace import Namespace, has_prefix


class InMemoryBackend:
    """Records in a dict, embeddings as unit-length numpy vectors; exact (brute-force) search.

    Thread-safe. Search cost grows linearly with the number of records under the prefix, which
    is fine up to some ten thousand items.
    """

    def __init__(self) -> None:
        self._records: dict[str, Record] = {}
        self._vectors: dict[str, np.ndarray] = {}
        self._info: dict[str, Any] | None = None
        self._lock = threading.RLock()

    def upsert(self, records: Sequence[Record], embeddings: Sequence[Sequence[float]]) -> None:
        """Insert or replace records by id; ``embeddings`` has shape ``(len(records), dim)``."""
        vectors = np.asarray(embeddings, dtype=np.float32).reshape(len(records), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = vectors / np.clip(norms, 1e-12, None)
        with self._lock:
            for record, vector in zip(records, vectors):
                self._records[record.id] = record
                self._vectors[record.id] = vector

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        with self._lock:
            return [self._records.get(i) for i in ids]

    def delete(self, ids: Sequence[str]) -> None:
        """Delete records by id; absent ids are ignored."""
        with self._lock:
            for i in ids:
                self._records.pop(i, None)
                self._vectors.pop(i, None)

    def embeddings(self, ids: Sequence[str]) -> list[list[float] | None]:
        """The stored (unit-length) embeddings by id, ``None`` where absent."""
        with self._lock:
            found = [self._vectors.get(i) for i in ids]
        return [None if v is None else v.tolist() for v in found]

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
        """Live matching records; nearest first with an embedding, else most recent first."""
        with self._lock:
            hits = [r for r in self.scan(prefix, now=now) if matches(r.value, clauses)]
            if embedding is None:
                hits.sort(key=lambda r: (-r.updated_at, r.id))
                return [(r, None) for r in hits[offset : offset + limit]]
            if not hits:
                return []
            query = np.asarray(embedding, dtype=np.float32)
            query = query / max(float(np.linalg.norm(query)), 1e-12)
            scores = np.stack([self._vectors[r.id] for r in hits]) @ query
        order = sorted(range(len(hits)), key=lambda i: (-scores[i], hits[i].id))
        return [(hits[i], float(scores[i])) for i in order[offset : offset + limit]]

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix``; expired ones too if ``now`` is None."""
        with self._lock:
            records = list(self._records.values())
        for record in records:
            if has_prefix(record.namespace, prefix) and (now is None or record.live(now)):
                yield record

    def get_info(self) -> dict[str, Any] | None:
        """The recorded settings, or None."""
        return dict(self._info) if self._info is not None else None

    def set_info(self, info: dict[str, Any]) -> None:
        """Record settings."""
        self._info = dict(info)

    def close(self) -> None:
        """Drop everything held."""
        with self._lock:
            self._records.clear()
            self._vectors.clear()
