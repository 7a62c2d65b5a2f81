"""The rows of a Postgres store's search statements read back as rankings and records.

The statements are :mod:`memvault.backends.postgres.statements`'; a row of a lexical or
hybrid search is a :data:`~memvault.backends.postgres.statements.CARRIED_ROW`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.backends.sql import record_of_row
from memvault.model import Ranked, Record

__all__ = ["by_score", "cut", "ranking", "record_of_carried", "rows_carrying_records"]


def ranking(rows: Sequence[Sequence[Any]]) -> Ranked:
    """``(id, score)`` rows as a ranking, in their order, scores as floats."""
    return [(item_id, float(score)) for item_id, score in rows]


def by_score(rows: Sequence[Sequence[Any]]) -> Ranked:
    """``(id, score)`` rows best first, ties by id."""
    return sorted(ranking(rows), key=lambda hit: (-hit[1], hit[0]))


def cut(hits: Ranked, limit: int, wanted: int) -> Ranked | None:
    """The top ``limit`` of an HNSW ranking asked for ``wanted > limit``, or ``None``.

    ``None`` where ``wanted`` came back (best first) and the last one ties with the last one
    kept: another record of that score may be missing, and ties go by id: ask for more.
    """
    if len(hits) < wanted or hits[-1][1] < hits[limit - 1][1]:
        return hits[:limit]
    return None


def rows_carrying_records(rows: Sequence[Sequence[Any]]) -> dict[str, Sequence[Any]]:
    """The rows that carry their record's value, by id.

    Args:
        rows: :data:`~memvault.backends.postgres.statements.CARRIED_ROW` rows.
    """
    return {row[1]: row for row in rows if row[4] is not None}


def record_of_carried(row: Sequence[Any]) -> Record:
    """The record of a row carrying its value.

    Args:
        row: A :data:`~memvault.backends.postgres.statements.CARRIED_ROW` whose ``value`` is
            not ``NULL``.
    """
    return record_of_row((row[1], row[4], row[3], *row[5:11]))
