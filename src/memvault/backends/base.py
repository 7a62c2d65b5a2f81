"""The narrow protocol a vector backend implements beneath :class:`~memvault.MemoryStore`.

The store validates every input, embeds texts and applies TTL defaults; a backend only stores
records with their embeddings and answers queries over them. All times are Unix seconds (UTC).
A new backend implements :class:`Backend` and passes ``tests/contract/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memvault.namespace import Namespace

Clauses = list[tuple[str, str, Any]]


@dataclass(frozen=True)
class Record:
    """One item as backends store it (see :class:`~memvault.MemoryItem` for the fields)."""

    namespace: Namespace
    key: str
    value: dict[str, Any]
    created_at: float
    updated_at: float
    expires_at: float | None

    @property
    def id(self) -> str:
        """The backend id; see :func:`record_id`."""
        return record_id(self.namespace, self.key)

    def live(self, now: float) -> bool:
        """Whether the record has not expired at ``now``."""
        return self.expires_at is None or self.expires_at > now


def record_id(namespace: Namespace, key: str) -> str:
    """A backend id for ``(namespace, key)``: their JSON array, which no two pairs share.

    Joining with a separator would let ``("a/b",), "c"`` and ``("a",), "b/c"`` collide; JSON
    quotes and escapes every part, so distinct pairs always get distinct ids.
    """
    return json.dumps([*namespace, key], ensure_ascii=False, separators=(",", ":"))


class Backend(Protocol):
    """Storage of records and their embeddings.

    Every query method takes ``now`` and never returns a record expired at that time; every
    namespace argument named ``prefix`` covers that namespace and all below it, segment-wise;
    ``clauses`` come from :func:`memvault.filters.normalize_filter` and must be applied inside the
    query, before ``limit`` and ``offset``.
    """

    def upsert(self, records: Sequence[Record], embeddings: Sequence[Sequence[float]]) -> None:
        """Insert or replace records by id; ``embeddings`` has shape ``(len(records), dim)``."""
        ...

    def get(self, ids: Sequence[str]) -> list[Record | None]:
        """Records by id (expired ones included), ``None`` where absent."""
        ...

    def delete(self, ids: Sequence[str]) -> None:
        """Delete records by id; absent ids are ignored."""
        ...

    def embeddings(self, ids: Sequence[str]) -> list[list[float] | None]:
        """The stored embeddings by id, each of shape ``(dim,)``, ``None`` where absent.

        The store's record index keeps a copy of every embedding (for exact search in small
        namespaces) and refills it from here when it is rebuilt or repaired.
        """
        ...

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
        """Live matching records with scores.

        With an ``embedding`` (shape ``(dim,)``), the nearest by cosine similarity, most similar
        first, with that similarity as the score; without, the most recently updated first,
        with score ``None``.
        """
        ...

    def scan(self, prefix: Namespace, *, now: float | None) -> Iterator[Record]:
        """Every record under ``prefix`` in no set order; expired ones too if ``now`` is None."""
        ...

    def get_info(self) -> dict[str, Any] | None:
        """The store's recorded settings (embedder name and dimension), or None if unset."""
        ...

    def set_info(self, info: dict[str, Any]) -> None:
        """Record the store's settings (str and int values)."""
        ...

    def close(self) -> None:
        """Release files and clients; the backend is unusable afterwards."""
        ...
