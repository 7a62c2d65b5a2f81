r"""How LangGraph values (any JSON dict) are kept in memvault, and how LangGraph filters map.

A LangGraph value need not have a ``"text"``; memvault embeds exactly one ``"text"`` per item
and filters top-level scalar fields. So a LangGraph value ``v`` is stored as the memvault value::

    {
        "text": <the text embedded for v>,
        "lg~": v,                       # the original, verbatim: it round-trips exactly
        "lg~ttl": <minutes>,            # only with a TTL: what a read refreshes it to
        "lg~noindex": True,             # only for an item LangGraph indexes nothing of
        "<path>": <scalar>, ...         # every scalar inside v, by dotted path, for filters
    }

- **Embedded text**: LangGraph's index ``fields`` (JSON paths read with
  ``langgraph.store.base.get_text_at_path``; ``"$"`` is the whole value as sorted JSON). The
  texts of several fields are joined with newlines into the one text memvault embeds (LangGraph's
  ``InMemoryStore`` embeds each field apart and keeps the best score), cut to
  :data:`memvault.items.MAX_TEXT_CHARS` with a marker (:func:`memvault.truncation.truncated`):
  a LangGraph value of any size is stored whole in ``lg~``, and only its first 32,000
  characters are searched.
- **Not indexed**: ``index=False``, ``index=[]``, or fields that hold no text in ``v`` (blank
  texts count as none) index nothing, as in ``InMemoryStore``. A memvault item still has one
  embedding, so such an item embeds its key (short and cheap) and is marked ``lg~noindex``;
  searches never rank it (see :class:`~langchain_memvault.graph_store.MemvaultLangGraphStore`).
- **Filter fields**: ``{"name": "Ada", "meta": {"lang": "en"}}`` gives ``name`` and
  ``meta.lang`` (a ``.`` or ``\\`` inside a key is escaped with ``\\``). The paths ``text`` and
  ``context`` (which memvault embeds) and paths starting with ``lg~`` are prefixed with ``lg~``
  so they never clash with memvault's own entries. LangGraph filters are translated by the same
  rule (:func:`translate_filter`).
- **As of a time**: a search returns what holds now (an item closed by
  :meth:`memvault.MemoryStore.supersede` is left out); the reserved top-level filter key
  ``"$as_of"`` (:data:`AS_OF`: seconds, a ``datetime`` or an ISO 8601 string) asks what held
  at another time (:func:`split_as_of`). No field
  can be named so: memvault refuses filter fields starting with ``$``.
- **Reading**: an item that has ``"lg~"`` reads back as exactly ``v``; an item written by
  memvault itself (the tools, the middleware, the core API) reads back as its memvault value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import get_text_at_path

from memvault.errors import InvalidFilterError, InvalidValueError, shown
from memvault.filters import is_scalar
from memvault.items import MAX_DEPTH, MAX_TEXT_CHARS, validate_json, validate_moment
from memvault.moments import read_moment
from memvault.truncation import truncated

MARK = "lg~"
"""The entry holding the original LangGraph value, and the escape prefix of clashing paths."""
TTL = MARK + "ttl"
"""The entry holding an item's LangGraph TTL in minutes, which reads refresh it to."""
NOINDEX = MARK + "noindex"
"""The entry (``True``) marking an item LangGraph indexes nothing of: searches never rank it."""
AS_OF = "$as_of"
"""The reserved top-level key of a LangGraph search filter that asks what held at a time."""
_RESERVED = ("text", "context")  # entries memvault itself reads (see memvault.lexical)


def field_name(path: Sequence[str]) -> str:
    """Name the memvault field that holds the scalar at ``path`` (keys) of a LangGraph value."""
    name = ".".join(k.replace("\\", "\\\\").replace(".", "\\.") for k in path)
    return MARK + name if name in _RESERVED or name.startswith(MARK) else name


def _flatten(value: Mapping[str, Any], path: tuple[str, ...], out: dict[str, Any]) -> None:
    for key, entry in value.items():
        if isinstance(entry, Mapping):
            _flatten(entry, (*path, key), out)
        elif is_scalar(entry) and (*path, key) != ("",):
            out[field_name((*path, key))] = entry


def embedded_text(value: Mapping[str, Any], fields: Sequence[str]) -> str | None:
    """Give the text memvault embeds for a LangGraph value under index ``fields``.

    Returns:
        The non-blank texts at ``fields``, joined with newlines and cut to
        :data:`memvault.items.MAX_TEXT_CHARS`; ``None`` if there are none (the item is then
        not indexed).
    """
    texts = [text for path in fields for text in get_text_at_path(value, path) if text.strip()]
    return truncated("\n".join(texts), MAX_TEXT_CHARS) if texts else None


def encode(
    value: Mapping[str, Any], fields: Sequence[str], *, key: str, ttl: float | None
) -> dict[str, Any]:
    """Build the memvault value that stores LangGraph ``value`` (see the module docstring).

    Args:
        value: The LangGraph value.
        fields: The index paths whose text is embedded; empty for an item not indexed.
        key: The item's key, embedded in place of a text when nothing is indexed.
        ttl: The item's TTL in minutes, or ``None``.

    Raises:
        memvault.errors.InvalidValueError: If ``value`` is not a dict of JSON data as
            :func:`memvault.items.validate_json` checks it, at most ``MAX_DEPTH - 1`` deep
            (the message names the path of the bad field).
    """
    if not isinstance(value, Mapping):
        raise InvalidValueError(
            f"LangGraph store value must be a dict such as {{'name': 'Ada'}}, got "
            f"{type(value).__name__}"
        )
    # The rules of memvault values (finite numbers, 64-bit ints, UTF-8, bounded depth), one
    # level less deep: the value is kept inside the memvault value.
    validate_json(dict(value), where="LangGraph store value", max_depth=MAX_DEPTH - 1)
    stored: dict[str, Any] = {}
    _flatten(value, (), stored)
    text = embedded_text(value, fields)
    if text is None:
        stored[NOINDEX] = True
    stored["text"] = text or key.strip() or "(not indexed)"
    stored[MARK] = dict(value)
    if ttl is not None:
        stored[TTL] = ttl
    return stored


def decode(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Read the LangGraph value back: the original if LangGraph wrote it, else the value."""
    original = stored.get(MARK)
    return dict(original) if isinstance(original, dict) else dict(stored)


def _conditions(path: tuple[str, ...], condition: Any, out: dict[str, Any]) -> None:
    if not isinstance(path[-1], str):
        raise InvalidFilterError(
            f"filter field {shown(path[-1])} must be a str, e.g. {{'meta': {{'lang': 'en'}}}}"
        )
    where = shown(".".join(path))
    if len(path) >= MAX_DEPTH:
        raise InvalidFilterError(
            f"filter on {where} nests fields deeper than {MAX_DEPTH - 1} levels, deeper than "
            "any stored value can be"
        )
    if isinstance(condition, Mapping) and condition:
        operators = [k for k in condition if isinstance(k, str) and k.startswith("$")]
        if not operators:
            for key, inner in condition.items():
                _conditions((*path, key), inner, out)
            return
        if len(operators) != len(condition):
            raise InvalidFilterError(
                f"filter on {where} mixes operators and fields: {shown(dict(condition))}; "
                "nest fields as {'meta': {'lang': 'en'}} and operators as {'n': {'$gt': 1}}"
            )
    elif isinstance(condition, (list, tuple, Mapping)):
        raise InvalidFilterError(
            f"filter on {where} compares a list or empty dict; memvault filters test "
            "scalar fields: filter on a str, int, float or bool field instead"
        )
    elif not is_scalar(condition):
        raise InvalidFilterError(
            f"filter on {where} compares {shown(condition)}; use a str, int, float or bool"
        )
    out[field_name(path)] = condition


def split_as_of(filter: Any) -> tuple[Any, float | None]:
    """Take the reserved :data:`AS_OF` key out of a LangGraph search filter.

    ``{"$as_of": datetime(2023, 4, 15), "kind": "home"}`` gives ``({"kind": "home"},
    1681516800.0)``: the rest of the filter, for :func:`translate_filter`, and the time the
    search asks about. The time is Unix seconds, a ``datetime`` (naive means UTC) or, as a
    filter read from JSON holds it, an ISO 8601 string (:func:`memvault.moments.read_moment`:
    ``"2023-04-15"`` is the end of that day, UTC).

    Args:
        filter: The filter of ``store.search(..., filter=...)``; anything that is not a dict
            is returned as it is (:func:`translate_filter` refuses it).

    Returns:
        The filter without the key, and the time in Unix seconds (``None`` if not given).

    Raises:
        memvault.InvalidArgumentError: If the time is none of those, or is before 1970.
    """
    if not isinstance(filter, Mapping) or AS_OF not in filter:
        return filter, None
    rest = {key: condition for key, condition in filter.items() if key != AS_OF}
    moment = filter[AS_OF]
    if isinstance(moment, str):
        return rest, read_moment(moment, AS_OF)
    return rest, validate_moment(moment, AS_OF, optional=True)


def translate_filter(filter: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Translate a LangGraph search filter into a memvault filter on the flattened fields.

    ``{"meta": {"lang": "en"}, "n": {"$gt": 1}}`` becomes ``{"meta.lang": "en", "n": {"$gt": 1}}``.
    Operators are memvault's (``$eq $ne $gt $gte $lt $lte $in $nin``, see
    :mod:`memvault.filters`); as there, a condition on a field an item lacks never matches.

    Raises:
        memvault.errors.InvalidFilterError: On a filter that is not a dict, a list or ``None``
            operand, or a dict mixing operators and fields; the message names the field.

    """
    if not filter:
        return None
    if not isinstance(filter, Mapping):
        raise InvalidFilterError(
            f"filter must be a dict such as {{'kind': 'note'}}, got {type(filter).__name__}"
        )
    out: dict[str, Any] = {}
    for key, condition in filter.items():
        _conditions((key,), condition, out)
    return out
