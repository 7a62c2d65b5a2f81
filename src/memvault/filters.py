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
from collections.abc import Mapping
from typing import Any

from memvault.errors import InvalidFilterError, shown
from memvault.items import MAX_INT, MIN_INT
from memvault.namespace import is_utf8

Scalar = str | int | float | bool
Filter = Mapping[str, Any]

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


def normalize_filter(filter: Filter | None) -> list[tuple[str, str, Any]]:
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


def _equal(a: Scalar, b: Scalar) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return float(a) == float(b)


def clause_matches(value: Mapping[str, Any], field: str, operator: str, operand: Any) -> bool:
    """Whether one clause holds for an item's value (the reference semantics of this module)."""
    if field not in value or not is_scalar(value[field]):
        return False
    actual = value[field]
    if operator == "$eq":
        return _equal(actual, operand)
    if operator == "$ne":
        return not _equal(actual, operand)
    if operator == "$in":
        return any(_equal(actual, item) for item in operand)
    if operator == "$nin":
        return not any(_equal(actual, item) for item in operand)
    if isinstance(actual, (bool, str)):
        return False
    actual, operand = float(actual), float(operand)
    if operator == "$gt":
        return actual > operand
    if operator == "$gte":
        return actual >= operand
    if operator == "$lt":
        return actual < operand
    return actual <= operand


def matches(value: Mapping[str, Any], clauses: list[tuple[str, str, Any]]) -> bool:
    """Whether every clause (from :func:`normalize_filter`) holds for an item's value."""
    return all(clause_matches(value, *clause) for clause in clauses)
