"""The two rankings the record file makes itself: exact nearest neighbours and BM25.

Each is two steps: reading the scope's rows (``*_rows``, inside the caller's hold on the
connection) and ranking them (outside it, so other threads use the file meanwhile). Both read
only the scope searched (a namespace prefix is one range of the ``ns`` index, and one word of
the FTS5 index), so their cost follows the scope, not the store.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

from memvault.backends.sql import live_under, under
from memvault.backends.sqlite.terms import frequencies, scope_token
from memvault.filters import PYTHON, compile_filter
from memvault.lexical import bm25
from memvault.model import Clauses, Namespace, Ranked, Validity


def best(ids: Sequence[str], scores: np.ndarray, limit: int) -> Ranked:
    """The ``limit`` best of ``ids`` by ``scores``, ties by id; ids scored ``-inf`` left out.

    Args:
        ids: Record ids.
        scores: Their scores, shape ``(len(ids),)``, higher is better.
        limit: Most ids to return.

    Returns:
        ``(id, score)`` pairs, best first.
    """
    candidates = np.flatnonzero(scores > -np.inf)
    if len(candidates) > limit:  # the top `limit`, and everything tied with the last of them
        bound = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
        candidates = candidates[scores[candidates] >= bound]
    order = sorted(candidates.tolist(), key=lambda i: (-scores[i], ids[i]))[:limit]
    return [(ids[i], float(scores[i])) for i in order]


def vector_rows(
    db: sqlite3.Connection,
    prefix: Namespace,
    *,
    filtered: bool,
    now: float,
    valid: Validity,
    within: int | None,
    only: set[str] | None,
) -> list[Any] | None:
    """The embeddings of the live records under ``prefix`` (by the ``ns`` index).

    Args:
        db: The record file's connection.
        prefix: Namespace prefix; ``()`` covers all.
        filtered: Whether to read the values too, for filter clauses.
        now: Unix seconds; expired records are left out.
        valid: Which records by their validity.
        within: Give up (return ``None``) if more than this many live records lie under
            ``prefix``; ``None``: no bound.
        only: Read only these ids.

    Returns:
        ``(id, vector bytes)`` rows (``(id, vector bytes, value JSON)`` if ``filtered``), or
        ``None`` (see ``within``).
    """
    condition, params = live_under(prefix, now, "?", valid)
    if only is not None:
        if not only:
            return []
        condition += f" AND i.id IN ({','.join('?' * len(only))})"
        params += sorted(only)
    if within is not None:
        size = db.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM items i WHERE {condition} LIMIT ?)",
            [*params, within + 1],
        ).fetchone()[0]
        if size > within:
            return None
    return db.execute(
        f"SELECT i.id, i.vector{', i.value' if filtered else ''} FROM items i "
        f"WHERE {condition} AND i.vector IS NOT NULL",
        params,
    ).fetchall()


def nearest(rows: list[Any], embedding: np.ndarray, *, clauses: Clauses, limit: int) -> Ranked:
    """Rank :func:`vector_rows` by a dot product of unit vectors, which is the cosine similarity.

    Args:
        rows: What :func:`vector_rows` read, with the values if there are ``clauses``.
        embedding: The query embedding at unit length, shape ``(dim,)``.
        clauses: Filter clauses, applied before ranking.
        limit: Most ids to return.

    Returns:
        ``(id, cosine similarity)`` pairs, most similar first, ties by id.
    """
    if clauses:
        holds = compile_filter(clauses, PYTHON)
        rows = [row for row in rows if holds(json.loads(row[2]))]
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32)
    scores = matrix.reshape(len(rows), -1) @ embedding
    return best([row[0] for row in rows], scores, limit)


def lexical_rows(
    db: sqlite3.Connection,
    terms: Sequence[str],
    prefix: Namespace,
    *,
    filtered: bool,
    now: float,
    valid: Validity,
) -> tuple[list[Any], int, int]:
    """The live records under ``prefix`` holding any of ``terms``, and the scope's statistics.

    FTS5 finds them: a prefix is one word of the index (each record's ``scope`` holds the
    word of every prefix of its namespace), so only the scope's records are read.

    Args:
        db: The record file's connection.
        terms: Folded query words (:func:`memvault.lexical.query_terms`), at least one.
        prefix: Namespace prefix; ``()`` covers all.
        filtered: Whether to read the values too, for filter clauses.
        now: Unix seconds; records expired by then are left out.
        valid: Which records by their validity (the statistics count every record).

    Returns:
        ``(id, length, terms column)`` rows (and the value JSON if ``filtered``); how many
        records lie under ``prefix`` and their total length in words, from the ``namespaces``
        table (so records expired but not yet cleaned up count).
    """
    expression = "body : (" + " OR ".join(f'"{term}"' for term in terms) + ")"
    if prefix:
        expression = f"scope : {scope_token(prefix)} AND {expression}"
    condition, params = live_under(prefix, now, "?", valid)
    scope, scope_params = under(prefix, "ns", "?")
    rows = db.execute(
        f"SELECT i.id, i.length, i.terms{', i.value' if filtered else ''} "
        f"FROM docs JOIN items i ON i.rowid = docs.rowid "
        f"WHERE docs MATCH ? AND {condition}",
        [expression, *params],
    ).fetchall()
    documents, words = db.execute(
        f"SELECT sum(items), sum(words) FROM namespaces WHERE {scope}", scope_params
    ).fetchone()
    return rows, documents or 0, words or 0


def lexical(
    rows: list[Any],
    terms: Sequence[str],
    *,
    documents: int,
    words: int,
    clauses: Clauses,
    limit: int,
) -> Ranked:
    """Rank :func:`lexical_rows` by :func:`memvault.lexical.bm25` with the scope's statistics.

    Word rarity comes from the records found. Filters narrow the records returned, not the
    statistics.

    Args:
        rows: What :func:`lexical_rows` read, with the values if there are ``clauses``.
        terms: The folded query words it was given.
        documents: How many records lie in the scope.
        words: Their total length in words.
        clauses: Filter clauses from :func:`memvault.filters.normalize_filter`.
        limit: Most ids to return.

    Returns:
        ``(id, BM25 score > 0)`` pairs, best first, ties by id.
    """
    if not rows:
        return []
    scores = bm25(
        frequencies([row[2] for row in rows], terms),
        np.array([row[1] for row in rows]),
        documents=max(documents, len(rows)),
        mean_length=words / max(documents, 1),
    )
    kept = scores > 0
    if clauses:
        holds = compile_filter(clauses, PYTHON)
        kept &= np.array([holds(json.loads(row[-1])) for row in rows])
    return best([row[0] for row in rows], np.where(kept, scores, -np.inf), limit)
