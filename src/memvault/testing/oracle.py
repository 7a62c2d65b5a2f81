"""What a correct backend returns, computed the plainest way: the contract's expectations.

Written apart from the product code it checks: :func:`filter_matches` reads the filter
language of :mod:`memvault.filters` from its documentation, not from
:func:`memvault.filters.matches`, so a mistake in one is caught by the other. Every function
here looks at one item at a time; the contract builds expected results from them by sorting
and slicing lists in plain Python.

The filter language, as documented:

- a filter maps a value field to a condition: a plain value (equality) or a dict of operators
  ``$eq $ne $gt $gte $lt $lte $in $nin``; every field and every operator must hold (AND);
- only top-level str, int, float and bool fields take part; a condition on a field the value
  lacks, or holds as anything else (a list, a dict, None), never matches, ``$ne`` and
  ``$nin`` included;
- a bool equals only a bool, a str only a str, and numbers (int or float) compare as 64-bit
  floats;
- ``$gt $gte $lt $lte`` match numeric fields only (never a bool or a str).

Validity, as :class:`memvault.model.Validity` documents it, is :func:`holds_during`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from memvault.lexical import BM25_B, BM25_K1, STOPWORDS
from memvault.model import Namespace

_KINDS = {bool: "bool", str: "str", int: "number", float: "number"}


def _kind(value: Any) -> str | None:
    """``"bool"``, ``"str"`` or ``"number"`` for a filterable scalar, else None.

    Looked up by exact type, so a bool is never taken for the number it subclasses.
    """
    return _KINDS.get(type(value))


def _same(field: Any, operand: Any) -> bool:
    """Equality in the filter language: same kind, and numbers equal as 64-bit floats."""
    kind = _kind(field)
    if kind is None or kind != _kind(operand):
        return False
    if kind == "number":
        return float(field) == float(operand)
    return bool(field == operand)


def _holds(field: Any, operator: str, operand: Any) -> bool:
    """Whether one operator holds for a field value that is a filterable scalar."""
    if operator == "$eq":
        return _same(field, operand)
    if operator == "$ne":
        return not _same(field, operand)
    if operator == "$in":
        return any(_same(field, each) for each in operand)
    if operator == "$nin":
        return not any(_same(field, each) for each in operand)
    if _kind(field) != "number":
        return False
    left, right = float(field), float(operand)
    if operator == "$gt":
        return left > right
    if operator == "$gte":
        return left >= right
    if operator == "$lt":
        return left < right
    if operator == "$lte":
        return left <= right
    raise ValueError(f"the oracle knows no operator {operator!r}")


def filter_matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Whether an item's value matches a filter, by the documented filter language.

    Args:
        value: The item's value (a dict with ``"text"``).
        filter: A filter as a user writes it (e.g. ``{"n": {"$gte": 2}, "kind": "fact"}``);
            ``None`` or ``{}`` match everything. It must be valid (the oracle does not
            validate).

    Returns:
        Whether every condition holds.

    Example:
        >>> filter_matches({"text": "x", "n": 2}, {"n": {"$in": [2.0, "2"]}})
        True
        >>> filter_matches({"text": "x"}, {"n": {"$ne": 1}})  # a missing field never matches
        False
    """
    for name, condition in (filter or {}).items():
        field = value.get(name)
        if _kind(field) is None:
            return False
        operators = condition if isinstance(condition, Mapping) else {"$eq": condition}
        if not all(_holds(field, op, operand) for op, operand in operators.items()):
            return False
    return True


def in_scope(namespace: Namespace, prefix: Namespace) -> bool:
    """Whether a namespace lies at or below a prefix, segment by segment.

    Example:
        >>> in_scope(("users", "alice", "work"), ("users", "alice"))
        True
        >>> in_scope(("users", "alice"), ("users", "al"))
        False
    """
    return tuple(namespace[: len(prefix)]) == tuple(prefix)


def is_live(expires_at: float | None, now: float) -> bool:
    """Whether an item with this expiry is live at ``now`` (Unix seconds).

    An item expiring exactly at ``now`` is expired.
    """
    return expires_at is None or expires_at > now


def holds_during(
    valid_from: float, valid_to: float | None, since: float, until: float | None = None
) -> bool:
    """Whether a read asking what held from ``since`` to ``until`` returns an item.

    The rule :class:`memvault.model.Validity` documents: an item holds in the world from its
    ``valid_from`` until its ``valid_to`` (``None``: still holds), the end excluded; a read
    returns it when what it says still held after ``since`` and, where ``until`` is given, had
    begun by then. A read of now asks ``since=now``; ``as_of=T`` asks ``since=until=T``; a
    query naming a past period asks ``since`` its start.

    Args:
        valid_from: When the item began to hold, Unix seconds.
        valid_to: When it stopped holding, Unix seconds, or ``None``.
        since: Unix seconds.
        until: Unix seconds, or ``None`` (no bound).

    Example:
        >>> holds_during(100.0, 200.0, since=200.0)  # ended exactly then
        False
        >>> holds_during(100.0, 200.0, since=150.0, until=150.0)  # as of 150
        True
        >>> holds_during(100.0, None, since=50.0, until=50.0)  # not yet begun
        False
    """
    if valid_to is not None and not valid_to > since:
        return False
    return until is None or valid_from <= until


def query_words(query: str) -> set[str]:
    """The words a lexical query searches for, lower-cased.

    Function words (:data:`memvault.lexical.STOPWORDS`) are dropped unless the query has
    nothing else, as :func:`memvault.lexical.query_words` documents.

    Example:
        >>> sorted(query_words("Where is the Dog?"))
        ['dog']
        >>> sorted(query_words("the"))
        ['the']
    """
    words = {word.lower() for word in re.findall(r"\w+", query)}
    return (words - STOPWORDS) or words


def searched_text(value: Mapping[str, Any]) -> str:
    """The text a backend embeds and indexes for a value: its ``text``, and its ``context``.

    ``value["context"]`` counts when it is a non-empty string (see
    :func:`memvault.lexical.indexed_text`).
    """
    context = value.get("context")
    if isinstance(context, str) and context.strip():
        return f"{value['text']}\n{context}"
    return str(value["text"])


def shares_query_word(value: Mapping[str, Any], query: str) -> bool:
    """Whether lexical search for ``query`` must find an item with this value.

    True when the item's searched text (:func:`searched_text`) holds one of the query's
    words (:func:`query_words`), compared lower-cased. The contract queries and stores only
    words that no stemmer changes differently, so whole-word equality is the exact rule.
    """
    words = {word.lower() for word in re.findall(r"\w+", searched_text(value))}
    return not words.isdisjoint(query_words(query))


def _words(value: Mapping[str, Any]) -> list[str]:
    return [word.lower() for word in re.findall(r"\w+", searched_text(value))]


def bm25_statistics(
    stored: Sequence[Mapping[str, Any]], live: Sequence[Mapping[str, Any]], query: str
) -> tuple[int, float, dict[str, int]]:
    """A scope's statistics for BM25, as :mod:`memvault.lexical` documents them.

    Args:
        stored: The values of every record stored under the prefix searched, expired ones
            not yet cleaned up included.
        live: The values of its live records.
        query: The query.

    Returns:
        ``(N, mean length, df)``: how many records are stored, their mean length in words,
        and for each query word (:func:`query_words`) how many live records hold it.
    """
    lengths = [len(_words(value)) for value in stored]
    held = {word: 0 for word in query_words(query)}
    for value in live:
        for word in set(_words(value)) & held.keys():
            held[word] += 1
    return len(stored), sum(lengths) / max(len(stored), 1), held


def bm25_score(value: Mapping[str, Any], statistics: tuple[int, float, dict[str, int]]) -> float:
    """Okapi BM25 of one item (Robertson et al., TREC-3, 1994), in Lucene's form.

    ``sum over query words of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / mean))``
    with ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``, ``k1`` and ``b`` those of
    :data:`memvault.lexical.BM25_K1` and :data:`memvault.lexical.BM25_B`, a mean below 1
    counting as 1 (the formula :func:`memvault.lexical.bm25` documents).

    Args:
        value: The item's value.
        statistics: Its scope's, from :func:`bm25_statistics`.
    """
    documents, mean, held = statistics
    words = _words(value)
    norm = BM25_K1 * (1 - BM25_B + BM25_B * len(words) / max(mean, 1.0))
    score = 0.0
    for word, df in held.items():
        tf = words.count(word)
        if tf:
            idf = math.log(1 + (documents - df + 0.5) / (df + 0.5))
            score += idf * tf * (BM25_K1 + 1) / (tf + norm)
    return score
