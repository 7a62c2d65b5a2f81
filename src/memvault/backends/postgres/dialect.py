"""The filter dialect of Postgres: a store's filters as SQL over the ``json`` column ``i.value``.

:class:`JsonSql` spells the three conditions every operator of :mod:`memvault.filters` is built
from; :func:`filter_sql` compiles validated clauses with it, so that a filter applies inside a
query, before its ``LIMIT``.
"""

from __future__ import annotations

from typing import Any

from memvault.filters import Scalar, compile_filter
from memvault.model import Clauses

__all__ = ["JSON_SQL", "JsonSql", "Sql", "filter_sql"]

Sql = tuple[str, list[Any]]
"""An SQL condition and its parameters."""

_SYMBOLS = {"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


class JsonSql:
    """:class:`~memvault.filters.FilterDialect` of SQL over the ``json`` column ``i.value``.

    ``json_typeof`` decides a field's kind (a missing field is ``NULL``: never a match),
    numbers compare as ``float8`` (64-bit floats), and every condition is ``TRUE`` or
    ``FALSE``, never ``NULL``, so that ``NOT`` and ``AND`` mean what they say.
    """

    def equals(self, field: str, operand: Scalar) -> Sql:
        """See :meth:`FilterDialect.equals <memvault.filters.FilterDialect.equals>`."""
        if isinstance(operand, bool):
            return (
                "coalesce(json_typeof(i.value -> %s) = 'boolean' AND i.value ->> %s = %s, FALSE)",
                [field, field, "true" if operand else "false"],
            )
        if isinstance(operand, str):
            return (
                "coalesce(json_typeof(i.value -> %s) = 'string' AND i.value ->> %s = %s, FALSE)",
                [field, field, operand],
            )
        return self._number(field, "=", float(operand))

    def differs(self, field: str, operand: Scalar) -> Sql:
        """See :meth:`FilterDialect.differs <memvault.filters.FilterDialect.differs>`."""
        equal, params = self.equals(field, operand)
        return (
            "coalesce(json_typeof(i.value -> %s) IN ('string', 'number', 'boolean'), FALSE) "
            f"AND NOT {equal}",
            [field, *params],
        )

    def compares(self, field: str, operator: str, operand: float) -> Sql:
        """See :meth:`FilterDialect.compares <memvault.filters.FilterDialect.compares>`."""
        return self._number(field, _SYMBOLS[operator], operand)

    def any_of(self, conditions: list[Sql]) -> Sql:
        """See :meth:`FilterDialect.any_of <memvault.filters.FilterDialect.any_of>`."""
        return "(" + " OR ".join(sql for sql, _ in conditions) + ")", _joined(conditions)

    def all_of(self, conditions: list[Sql]) -> Sql:
        """See :meth:`FilterDialect.all_of <memvault.filters.FilterDialect.all_of>`."""
        if not conditions:
            return "TRUE", []
        return " AND ".join(f"({sql})" for sql, _ in conditions), _joined(conditions)

    @staticmethod
    def _number(field: str, symbol: str, operand: float) -> Sql:
        return (
            "coalesce(CASE WHEN json_typeof(i.value -> %s) = 'number' "
            f"THEN (i.value ->> %s)::float8 {symbol} %s END, FALSE)",
            [field, field, operand],
        )


def _joined(conditions: list[Sql]) -> list[Any]:
    return [param for _, params in conditions for param in params]


JSON_SQL = JsonSql()
"""The dialect :func:`filter_sql` compiles with."""


def filter_sql(clauses: Clauses) -> Sql:
    """SQL for filter clauses over ``i.value``, with the semantics of :mod:`memvault.filters`.

    Args:
        clauses: Validated clauses (:func:`memvault.filters.normalize_filter`).

    Returns:
        The condition (``TRUE`` without clauses) and its parameters.
    """
    return compile_filter(clauses, JSON_SQL)
