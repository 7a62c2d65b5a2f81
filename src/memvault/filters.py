"""The metadata filter language, validated in one place and evaluated the same on every backend.

A filter is a dict from a value field to a condition. A condition is a plain value (equality) or
a dict with one or more operators: ``$eq $ne $gt $gte $lt $lte $in $nin``. Several fields, or
several operators on one field, all have to hold (AND). This is the operator set of MongoDB and
Chroma's ``where``.

Semantics, shared by all backends:

- Fields are top-level entries of the item's value whose value is a str, int, float or bool.
- A condition on a field an item lacks (or holds as a list, dict or None) does not match, whatever
  the operator, ``$ne`` and ``$nin`` included.
- bool only equals bool; int and float compare as numbers, as 64-bit floats (the way Chroma
  stores them, so integers beyond 2**53 compare rounded on every backend); strings only equal
  strings. Operands must be finite (no NaN or infinity), ints within signed 64 bits
  (:data:`~memvault.items.MIN_INT` to :data:`~memvault.items.MAX_INT`, as values), strings and
  field names UTF-8.
- ``$gt $gte $lt $lte`` take a number and match numeric fields only.

Example:
    ``{"speaker": "Caroline", "timestamp": {"$gte": 1683504000}}``
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from memvault.errors import InvalidFilterError, shown
from memvault.items import MAX_INT, MIN_INT
from memvault.model import Clauses
from memvault.namespace import is_utf8

Scalar = str | int | float | bool
Filter = Mapping[str, Any]
C = TypeVar("C")

COMPARISONS = ("$gt", "$gte", "$lt", "$lte")
OPERATORS = ("$eq", "$ne", "$in", "$nin", *COMPARISONS)


def _finite(value: Any) -> bool:
    """Whether a number can be stored and compared: a finite float, an int within 64 bits."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return MIN_INT <= value <= MAX_INT
    return True


def _storable(value: Any) -> bool:
    return _finite(value) and (not isinstance(value, str) or is_utf8(value))


def is_scalar(value: Any) -> bool:
    """Whether a value is a filterable scalar: str, int, float or bool."""
    return isinstance(value, (str, int, float, bool))


def normalize_filter(filter: Filter | None) -> Clauses:
    """Validate a filter and flatten it into ``(field, operator, operand)`` clauses (ANDed).

    Args:
        filter: The filter dict, or ``None`` / ``{}`` for no filter.

    Returns:
        The clauses; an empty list means "match everything".

    Raises:
        InvalidFilterError: On a field that is not a non-empty UTF-8 string or starts with
            ``$``, an unknown operator, an operand of the wrong type (a comparison with a
            non-number, a ``$in`` with something other than a non-empty list of scalars), or an
            operand no backend can hold (NaN, infinity, an int beyond 64 bits, a lone
            surrogate).
    """
    if filter is None:
        return []
    if not isinstance(filter, Mapping):
        raise InvalidFilterError(
            f"filter must be a dict such as {{'speaker': 'alice'}}, got {type(filter).__name__}"
        )
    clauses = []
    for field, condition in filter.items():
        if not isinstance(field, str) or not field or field.startswith("$") or not is_utf8(field):
            raise InvalidFilterError(
                f"filter field {shown(field)} must be a value field name (UTF-8, not starting with "
                "'$'); operators go inside a "
                "field's condition, e.g. {'age': {'$gt': 3}}, and several fields mean AND"
            )
        if isinstance(condition, Mapping):
            if not condition:
                raise InvalidFilterError(
                    f"filter on {shown(field)} has an empty condition {{}}; give a value or an "
                    "operator such as {'$eq': 1}"
                )
            for operator, operand in condition.items():
                clauses.append((field, operator, _check_operand(field, operator, operand)))
        else:
            clauses.append((field, "$eq", _check_operand(field, "$eq", condition)))
    return clauses


def _check_operand(field: str, operator: Any, operand: Any) -> Any:
    if operator not in OPERATORS:
        raise InvalidFilterError(
            f"filter on {shown(field)} uses unknown operator {shown(operator)}; use one of "
            f"{OPERATORS}"
        )
    if operator in COMPARISONS:
        if (
            isinstance(operand, bool)
            or not isinstance(operand, (int, float))
            or not _finite(operand)
        ):
            raise InvalidFilterError(
                f"filter {shown(field)}: {operator} needs a number (finite; an int within 64 "
                f"bits), got {shown(operand)}"
            )
    elif operator in ("$in", "$nin"):
        if not isinstance(operand, (list, tuple)) or not operand:
            raise InvalidFilterError(
                f"filter {shown(field)}: {operator} needs a non-empty list of values, got "
                f"{shown(operand)}"
            )
        if not all(is_scalar(item) and _storable(item) for item in operand):
            raise InvalidFilterError(
                f"filter {shown(field)}: {operator} values must be str, int, float or bool (UTF-8 "
                f"text, finite numbers, ints within 64 bits), got {shown(operand)}"
            )
        return list(operand)
    elif not is_scalar(operand) or not _storable(operand):
        raise InvalidFilterError(
            f"filter {shown(field)}: {operator} needs a str, int, float or bool (UTF-8 text, "
            f"finite numbers, ints within 64 bits), got {shown(operand)}"
        )
    return operand


class FilterDialect(Protocol[C]):
    """What one backend's query language needs to express a filter: three kinds of condition.

    :func:`compile_filter` builds every operator from them, so the semantics of this module
    (which fields count, which types compare, what ``$ne`` means for a missing field) are
    written once; a dialect only spells a condition in its language: a Python predicate
    (:data:`PYTHON`), Postgres SQL over a ``json`` column
    (:class:`memvault.backends.postgres.dialect.JsonSql`), a Chroma ``where``
    (:class:`memvault.backends.chroma_schema.ChromaWhere`).
    """

    def equals(self, field: str, operand: Scalar) -> C:
        """The field holds a scalar equal to ``operand``.

        A bool equals only a bool, a str only a str; numbers compare as 64-bit floats.
        """
        ...

    def differs(self, field: str, operand: Scalar) -> C:
        """The field holds a scalar, and it does not equal ``operand`` (as :meth:`equals`)."""
        ...

    def compares(self, field: str, operator: str, operand: float) -> C:
        """The field holds a number (not a bool) that is ``operator`` ``operand``.

        ``operator`` is one of ``$gt $gte $lt $lte``.
        """
        ...

    def any_of(self, conditions: list[C]) -> C:
        """At least one of ``conditions`` (one or more) holds."""
        ...

    def all_of(self, conditions: list[C]) -> C:
        """Every one of ``conditions`` holds; ``[]``: always true."""
        ...


def compile_filter(clauses: Clauses, dialect: FilterDialect[C]) -> C:
    """The condition that every clause holds, in ``dialect``'s language.

    Args:
        clauses: From :func:`normalize_filter`.
        dialect: How conditions are spelled.

    Returns:
        ``$eq``: equals; ``$in``: equals one of; ``$ne``: differs; ``$nin``: differs from each;
        ``$gt $gte $lt $lte``: compares; all of them ANDed.
    """
    parts: list[C] = []
    for field, operator, operand in clauses:
        if operator == "$eq":
            parts.append(dialect.equals(field, operand))
        elif operator == "$in":
            parts.append(dialect.any_of([dialect.equals(field, item) for item in operand]))
        elif operator == "$ne":
            parts.append(dialect.differs(field, operand))
        elif operator == "$nin":
            parts.append(dialect.all_of([dialect.differs(field, item) for item in operand]))
        else:
            parts.append(dialect.compares(field, operator, float(operand)))
    return dialect.all_of(parts)


Predicate = Callable[[Mapping[str, Any]], bool]
"""A condition on an item's value, in Python."""


def _same(actual: Any, operand: Scalar) -> bool:
    """Equality of two scalars: bool only bool, str only str, numbers as floats."""
    if isinstance(actual, bool) or isinstance(operand, bool):
        return isinstance(actual, bool) and isinstance(operand, bool) and actual == operand
    if isinstance(actual, str) or isinstance(operand, str):
        return isinstance(actual, str) and isinstance(operand, str) and actual == operand
    return float(actual) == float(operand)


_ORDER: dict[str, Callable[[float, float], bool]] = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


class PythonPredicates:
    """:class:`FilterDialect` of Python predicates over an item's value."""

    def equals(self, field: str, operand: Scalar) -> Predicate:
        """See :meth:`FilterDialect.equals`."""
        return lambda value: is_scalar(value.get(field)) and _same(value[field], operand)

    def differs(self, field: str, operand: Scalar) -> Predicate:
        """See :meth:`FilterDialect.differs`."""
        return lambda value: is_scalar(value.get(field)) and not _same(value[field], operand)

    def compares(self, field: str, operator: str, operand: float) -> Predicate:
        """See :meth:`FilterDialect.compares`."""
        holds = _ORDER[operator]

        def compared(value: Mapping[str, Any]) -> bool:
            actual = value.get(field)
            if isinstance(actual, bool) or not isinstance(actual, (int, float)):
                return False
            return holds(float(actual), operand)

        return compared

    def any_of(self, conditions: list[Predicate]) -> Predicate:
        """See :meth:`FilterDialect.any_of`."""
        return lambda value: any(condition(value) for condition in conditions)

    def all_of(self, conditions: list[Predicate]) -> Predicate:
        """See :meth:`FilterDialect.all_of`."""
        return lambda value: all(condition(value) for condition in conditions)


PYTHON = PythonPredicates()
"""The Python dialect: :func:`compile_filter` with it gives a predicate on values."""


def matches(value: Mapping[str, Any], clauses: Clauses) -> bool:
    """Whether every clause (from :func:`normalize_filter`) holds for an item's value.

    For many values, compile once: ``compile_filter(clauses, PYTHON)``.
    """
    return compile_filter(clauses, PYTHON)(value)
