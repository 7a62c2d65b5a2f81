"""The SQL of a Postgres store's searches: dense (exact or HNSW), BM25, and both at once.

:class:`SearchStatements` builds each statement of a search of one schema, with its
parameters; the backend runs them (:mod:`memvault.backends.postgres.connections`) and reads
their rows (:mod:`memvault.backends.postgres.rankings`).

Every statement keeps the records its read's :class:`~memvault.model.Validity` admits, in
SQL (:func:`scope_of`), with its bounds as parameters: one SQL text serves every validity,
so a statement prepared once keeps one generic plan
(:data:`~memvault.backends.postgres.connections.SESSION_SETTINGS`).

- **Dense**: a scope of at most ``exact_scope`` live records (:data:`EXACT_SCOPE`) is ranked
  exactly by ``-(embedding <#> q)``, the dot product of unit vectors, ordered by that
  expression and id, so that the planner cannot use the approximate index; a larger scope asks
  the HNSW index. One statement holds both and runs one: a one-time filter on the scope's
  count.
- **BM25** (:func:`memvault.lexical.bm25`, computed in SQL): the statistics of the scope
  searched, the records holding a query word matched record by record in a scope of at most
  ``exact_scope`` records and found by the GIN index in a larger one.
- **Hybrid**: one statement of both rankings, the dense one counting the scope by the BM25
  statistics' count, its rows carrying the records of each ranking's top
  (:data:`CARRIED_ROW`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from memvault.backends.postgres.dialect import filter_sql
from memvault.backends.postgres.words import tsquery_of
from memvault.backends.sql import live_under, under
from memvault.lexical import BM25_B, BM25_K1, query_terms
from memvault.model import Clauses, Namespace, SearchRequest, Validity

__all__ = ["CARRIED_ROW", "EXACT_SCOPE", "SearchStatements", "scope_of"]

EXACT_SCOPE = 2_000
"""Largest scope (live records under the searched prefix) that dense search ranks exactly
and lexical search reads record by record; larger scopes ask the HNSW and the GIN index."""

CARRIED_ROW = (
    "(part, id, score, created, value, updated, expires, valid_from, valid_to, origin, session)"
)
"""A row of a search statement that carries records (:meth:`PostgresBackend.search
<memvault.backends.postgres.backend.PostgresBackend.search>`): the ranking (0 exact dense, 1
HNSW, 2 BM25), the record's id, score and ``created``, and its value (JSON text),
``updated``, ``expires``, ``valid_from``, ``valid_to``, ``origin`` and ``session`` for the
ranking's top rows only (``NULL`` below them)."""

_RANK = "row_number() OVER (ORDER BY {0}.score DESC, {0}.id) AS rank"
"""A ranking row's place (1 for the best, ties by id), for :func:`_carrying`."""


def _carrying(ranked: str, carry: int, schema: str) -> tuple[str, str, list[Any]]:
    """The select list and join that make ``ranked``'s rows :data:`CARRIED_ROW`.

    ``ranked`` is a subquery's alias with columns ``id``, ``created``, ``score`` and ``rank``
    (:data:`_RANK`); the record's other columns are read by its id for the top ``carry`` rows
    only: a lateral join whose condition on ``rank`` is a one-time filter checked before the
    read (``OFFSET 0`` keeps the planner from flattening it into a filter after the read), so
    rankings sort narrow rows and only the records a page may show are read.

    Returns:
        ``(select list without the part, the join, its parameters)``.
    """
    return (
        f"{ranked}.id, {ranked}.score, {ranked}.created, c.value::text, c.updated, c.expires, "
        "c.valid_from, c.valid_to, c.origin, c.session",
        "LEFT JOIN LATERAL (SELECT i.value, i.updated, i.expires, i.valid_from, i.valid_to, "
        "i.origin, i.session "
        f"FROM {schema}.items i WHERE i.id = {ranked}.id AND {ranked}.rank <= %s OFFSET 0) "
        "AS c ON TRUE",
        [carry],
    )


def scope_of(prefix: Namespace, now: float | None, valid: Validity | None) -> tuple[str, list[Any]]:
    """SQL conditions (alias ``i``): under ``prefix``, live at ``now``, admitted by ``valid``.

    :func:`memvault.backends.sql.live_under`'s, with ``valid.until`` always given (infinity
    where it is ``None``, which every ``valid_from`` is below): one SQL text for every
    validity, its bounds parameters.

    Args:
        prefix: A namespace prefix; ``()`` covers everything.
        now: Unix seconds; ``None`` keeps expired records too.
        valid: Which records by their validity; ``None``: all.

    Returns:
        The conditions and their parameters (``%s`` marks).
    """
    if valid is not None and valid.until is None:
        valid = Validity(since=valid.since, until=math.inf)
    return live_under(prefix, now, "%s", valid)


def _nearest_condition(
    prefix: Namespace, clauses: Clauses, now: float, valid: Validity
) -> tuple[str, list[Any]]:
    """SQL conditions (alias ``i``) of the records a dense search ranks."""
    scope, params = scope_of(prefix, now, valid)
    where, more = filter_sql(clauses)
    return f"{scope} AND {where} AND i.embedding IS NOT NULL", [*params, *more]


@dataclass(frozen=True)
class SearchStatements:
    """The search statements of the store in one schema.

    Every statement reads ``items`` aliased ``i``, takes ``now`` (Unix seconds; records
    expired then are left out), ``clauses`` (:func:`memvault.filters.normalize_filter`) and
    ``valid`` (the :class:`~memvault.model.Validity` of the records returned), and returns
    ``(sql, parameters)`` with ``%s`` marks (psycopg).

    Attributes:
        schema: The store's Postgres schema.
        exact_scope: The largest scope ranked exactly (:data:`EXACT_SCOPE`).
    """

    schema: str
    exact_scope: int = EXACT_SCOPE

    def nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
        *,
        counted: str | None = None,
        carry: int | None = None,
    ) -> tuple[str, str, list[Any]]:
        """SQL of a dense ranking: a ``size`` CTE, and rows ``(part, id, score)``.

        Part 0 is the exact ranking's top ``limit`` where the scope holds at most
        ``exact_scope`` live records, part 1 the HNSW ranking's ``limit + 1`` where it holds
        more (the other part is never executed: a one-time filter on the count).

        ``counted`` names a CTE of the statement that counts the scope's live records as
        ``live`` (a BM25 ranking's ``scope``); without it, the ``size`` CTE returned counts
        them. With ``carry`` the rows are :data:`CARRIED_ROW`, the records of the ranking's
        top ``carry`` read with it (:func:`_carrying`).

        Returns:
            ``(the CTE or "", the ranking's SELECT, their parameters)``.
        """
        cte, size_params = "", list[Any]()
        if counted is None:
            size, size_params = self.scope_size(prefix, now)
            cte, counted = f"size AS MATERIALIZED ({size})", "size"
        exact = self.exact_nearest(vector, prefix, clauses, now, valid, limit)
        index = self.index_nearest(vector, prefix, clauses, now, valid, limit + 1)
        parts = []
        for part, (sql, params) in enumerate((exact, index)):
            branch = f"(SELECT live FROM {counted}) {'<=' if part == 0 else '>'} %s"
            if carry is None:
                parts.append(
                    (
                        f"SELECT {part}, r.id, r.score FROM ({sql}) AS r WHERE {branch}",
                        [*params, self.exact_scope],
                    )
                )
                continue
            picked, joined, picked_params = _carrying("r", carry, self.schema)
            parts.append(
                (
                    f"SELECT {part}, {picked} FROM (SELECT n.*, {_RANK.format('n')} "
                    f"FROM ({sql}) AS n) AS r {joined} WHERE {branch}",
                    [*params, *picked_params, self.exact_scope],
                )
            )
        return (
            cte,
            " UNION ALL ".join(sql for sql, _ in parts),
            [*size_params, *(param for _, params in parts for param in params)],
        )

    def scope_size(self, prefix: Namespace, now: float) -> tuple[str, list[Any]]:
        """SQL giving ``live``: live records under ``prefix``, counted up to ``exact_scope + 1``.

        Enough to choose between the exact and the HNSW ranking. Whatever their validity: the
        count is read from the ``ns`` index alone, and a scope of up to ``exact_scope`` live
        records holds at most that many a validity admits.
        """
        scope, params = live_under(prefix, now, "%s")
        return (
            f"SELECT count(*) AS live FROM (SELECT 1 FROM {self.schema}.items i WHERE {scope} "
            "LIMIT %s) AS counted",
            [*params, self.exact_scope + 1],
        )

    def exact_nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> tuple[str, list[Any]]:
        """SQL ranking the scope's matching records exactly: ``(id, created, score)``, best first.

        The score expression is not the index's operator, so Postgres ranks exactly; the rows
        sorted are narrow (a record's other columns are read for the top only, by id).
        """
        condition, params = _nearest_condition(prefix, clauses, now, valid)
        return (
            "SELECT i.id, i.created, -(i.embedding <#> %s::vector) AS score "
            f"FROM {self.schema}.items i WHERE {condition} ORDER BY score DESC, i.id LIMIT %s",
            [vector, *params, limit],
        )

    def index_nearest(
        self,
        vector: np.ndarray,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> tuple[str, list[Any]]:
        """SQL asking the HNSW index for ``limit`` matching records: ``(id, created, score)``.

        In the index's relaxed order (sort them); see
        :data:`~memvault.backends.postgres.connections.SESSION_SETTINGS`.
        """
        condition, params = _nearest_condition(prefix, clauses, now, valid)
        return (
            "SELECT i.id, i.created, -(i.embedding <#> %s::vector) AS score "
            f"FROM {self.schema}.items i WHERE {condition} ORDER BY i.embedding <=> %s::vector "
            "LIMIT %s",
            [vector, *params, vector, limit],
        )

    def bm25(
        self,
        query: str,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
    ) -> tuple[str, list[Any]] | None:
        """SQL ranking the scope's records by BM25: ``(id, score)``.

        What :meth:`PostgresBackend.lexical
        <memvault.backends.postgres.backend.PostgresBackend.lexical>` runs. Best first, ties by
        id; ``None`` for a query without words.
        """
        parts = self.bm25_parts(query, prefix, clauses, now, valid, limit)
        if parts is None:
            return None
        ctes, cte_params, select, select_params = parts
        return f"WITH {ctes} {select}", [*cte_params, *select_params]

    def bm25_parts(
        self,
        query: str,
        prefix: Namespace,
        clauses: Clauses,
        now: float,
        valid: Validity,
        limit: int,
        carry: int | None = None,
    ) -> tuple[str, list[Any], str, list[Any]] | None:
        """The CTEs and the SELECT of a BM25 ranking, for :meth:`bm25` or a larger statement.

        The CTEs include ``scope``: the BM25 statistics of every record stored under
        ``prefix`` (``n`` and ``mean`` length, expired records not yet cleaned up included,
        as on the record file: :mod:`memvault.lexical`) and how many are ``live``, which a
        dense ranking of the same statement may count by
        (:meth:`nearest`'s ``counted``). ``valid`` narrows the records returned as
        ``clauses`` do, after the statistics are read: a word's rarity counts the live
        records holding it, whatever their validity. With ``carry``, the rows are
        :data:`CARRIED_ROW` without their part, the value read for the ranking's top
        ``carry`` only; without it, ``(id, score)``.

        Returns:
            ``(CTEs, their parameters, SELECT, its parameters)``; ``None`` for a query
            without words.
        """
        expression = tsquery_of(query)
        if expression is None:
            return None
        words = query_terms(query)
        scope, params = live_under(prefix, now, "%s")
        where, more = filter_sql(clauses)
        holds, held = scope_of((), None, valid)
        more = [*more, *held]
        t = self.schema
        # The query words' term frequencies come from marking them (setweight) and keeping
        # only the marked (ts_filter), in C: unnesting whole tsvectors cost 3 times as much.
        # A record's terms are summed in one order, so that its score is the same float in
        # every plan (records with the same words tie exactly, ordered by id).
        # A scope of up to exact_scope records is read by the ns index and its records matched
        # one by one (ts_match_vq is @@ that no index serves): the GIN index would collect
        # every record of the store holding a query word, a cost growing with other users'
        # memories. A larger scope is found by the GIN index. One branch runs (a one-time
        # filter on the scope's count).
        found = (
            f"SELECT i.id, i.created, i.words, i.length::float8, ({where} AND {holds}) AS kept "
            f"FROM {t}.items i"
        )
        stored, stored_params = under(prefix, "i.ns", "%s")
        ctes = f"""scope AS (
                SELECT count(*)::float8 AS n, coalesce(avg(i.length), 0)::float8 AS mean,
                    count(*) FILTER (WHERE i.expires IS NULL OR i.expires > %s) AS live
                FROM {t}.items i WHERE {stored}
            ), found AS (
                {found} WHERE ts_match_vq(i.words, %s::tsquery) AND {scope}
                    AND (SELECT live FROM scope) <= %s
                UNION ALL
                {found} WHERE i.words @@ %s::tsquery AND {scope}
                    AND (SELECT live FROM scope) > %s
            ), terms AS (
                SELECT f.id, f.created, f.kept, f.length, w.lexeme,
                    cardinality(w.positions)::float8 AS tf
                FROM found f,
                unnest(ts_filter(setweight(f.words, 'A', %s::text[]), '{{a}}')) AS w
            ), rarity AS (
                SELECT lexeme, ln(1 + (s.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
                FROM terms, scope s GROUP BY lexeme, s.n
            )"""
        cte_params = [
            now,
            *stored_params,
            *more,
            expression,
            *params,
            self.exact_scope,
            *more,
            expression,
            *params,
            self.exact_scope,
            words,
        ]
        score = """sum(r.idf * t.tf * (%s + 1)
                / (t.tf + %s * (1 - %s + %s * t.length / greatest(s.mean, 1)))
                ORDER BY t.lexeme)"""
        ranked = (
            "FROM terms t JOIN rarity r USING (lexeme), scope s WHERE t.kept "
            "GROUP BY t.id, t.created ORDER BY score DESC, t.id LIMIT %s"
        )
        constants: list[Any] = [BM25_K1, BM25_K1, BM25_B, BM25_B]
        if carry is None:
            return ctes, cte_params, f"SELECT t.id, {score} AS score {ranked}", [*constants, limit]
        picked, joined, picked_params = _carrying("b", carry, t)
        select = (
            f"SELECT {picked} FROM (SELECT n.*, {_RANK.format('n')} FROM (SELECT t.id, "
            f"t.created, {score} AS score {ranked}) AS n) AS b {joined}"
        )
        return ctes, cte_params, select, [*constants, limit, *picked_params]

    def hybrid(
        self, request: SearchRequest, vector: np.ndarray, limit: int, *, carry: int
    ) -> tuple[str, list[Any]]:
        """The statement of a hybrid search: :data:`CARRIED_ROW` rows of both rankings.

        ``vector`` is the request's embedding at unit length. The dense ranking counts the
        scope by the BM25 statistics' ``scope``; without query words, by a ``size`` CTE of
        its own, and there is no BM25 part.
        """
        r = request
        assert r.query is not None
        bm25 = self.bm25_parts(r.query, r.prefix, r.clauses, r.now, r.valid, limit, carry)
        if bm25 is None:
            size, nearest, params = self.nearest(
                vector, r.prefix, r.clauses, r.now, r.valid, limit, carry=carry
            )
            return f"WITH {size} {nearest}", params
        ctes, cte_params, select, select_params = bm25
        _, nearest, params = self.nearest(
            vector, r.prefix, r.clauses, r.now, r.valid, limit, counted="scope", carry=carry
        )
        return (
            f"WITH {ctes} {nearest} UNION ALL SELECT 2, b.* FROM ({select}) AS b",
            [*cte_params, *params, *select_params],
        )
