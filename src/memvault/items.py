"""What the store holds: values and :class:`MemoryItem`, and the rules every write checks.

The rules live here, once, for every way in (``put``, ``put_many``, ``import_jsonl``,
``memvault ingest``, the adapters):

- A value is a dict with a non-empty ``"text"`` string of at most :data:`MAX_TEXT_CHARS`
  characters and at most :data:`MAX_FIELDS` entries,
  made of JSON only (dict with ``str`` keys, list, str, int, float, bool, None), so it
  round-trips exactly (:func:`validate_value`, :func:`validate_json`): floats finite, ints
  within signed 64 bits (:data:`MIN_INT` to :data:`MAX_INT`), strings and keys UTF-8, at most
  :data:`MAX_DEPTH` containers deep.
- Times (``created_at``, ``updated_at``, ``expires_at``, a ``timestamp``) are finite Unix
  seconds in ``[0, MAX_SECONDS)`` (:func:`validate_time`); TTLs are positive seconds below
  :data:`MAX_TTL` (:func:`validate_ttl`).
- A batch of items is an iterable of ``(key, value)`` pairs (:func:`validate_items`).

Namespace and key rules are in :mod:`memvault.namespace`, filter rules in
:mod:`memvault.filters`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memvault.errors import InvalidArgumentError, InvalidKeyError, InvalidValueError, shown

# Origin: pydantic 2.5 (the floor) resolves Provenance's string annotations here, in the
# namespace of the model that holds it (later releases read the dataclass's own module).
from memvault.model import Namespace, Origin, Provenance, Record  # noqa: F401
from memvault.namespace import is_utf8, validate_key

ScoreType = Literal["cosine", "bm25", "hybrid"]
"""What a search score is: see :attr:`MemoryItem.score_type`."""

SCORE_SCALES: dict[ScoreType, str] = {
    "cosine": "cosine similarity of the embeddings, from -1 to 1",
    "bm25": "BM25 of the words the item shares with the query, above 0; compare within one "
    "search only",
    "hybrid": "BM25 and cosine fused, from 0 to 1 within one search (the best word match "
    "scores at least 0.5): how an item ranks against the others found, not how well it "
    "matches; --mode dense gives cosine similarities",
}
"""Each score type's scale in a line, as ``memvault search`` explains its scores
(:mod:`memvault.fusion` for the hybrid score)."""

MAX_SECONDS = 1e12
"""Upper bound (exclusive) of every time, in Unix seconds: about the year 33,658. Times are
finite and from 0 (1970-01-01 UTC) up to this, so any stored time converts to a ``datetime``
and the sum of two stays a float with sub-millisecond precision."""

MAX_TTL = MAX_SECONDS / 2
"""Upper bound (exclusive) of a time to live, in seconds (about 15,800 years): ``now + ttl``
stays below :data:`MAX_SECONDS` for any ``now`` before the year 17,800."""

MIN_INT = -(2**63)
"""Smallest int a value may hold: the least signed 64-bit integer."""

MAX_INT = 2**63 - 1
"""Largest int a value may hold: the greatest signed 64-bit integer. SQLite's INTEGER and
Chroma's int metadata are signed 64-bit, so a larger int cannot be stored or filtered on every
backend; it is refused anywhere in a value (keep such numbers as strings)."""

MAX_DEPTH = 32
"""Most containers (dicts and lists) a value may nest, the value itself counted: ``{"text":
"x"}`` is 1 deep, ``{"text": "x", "a": [1]}`` 2. The check never recurses, so a value of any
depth gets :class:`~memvault.errors.InvalidValueError`, never ``RecursionError``."""

MAX_FIELDS = 1000
"""Most entries a value may have at its top level. Chroma keeps each top-level scalar as two
metadata entries of the record (for filters), and a record with about 6,000 of them breaks its
compaction for good (the collection can then be neither written nor opened); nested entries
have no such cost."""

MAX_TEXT_CHARS = 32_000
"""Most characters (Unicode code points) a value's ``"text"`` may hold. The text is what the
store embeds and indexes and what a recall puts into a prompt, so it is a memory, not a
document: 32,000 characters (about 8,000 tokens of English) hold a long note or a page-sized
chunk whole, far more than the default embedder reads (its first 256 word pieces, about 1,000
characters), while a pasted file or log of hundreds of KB is refused: split it into several
memories, or store a summary and keep the document elsewhere. Items already stored are not
checked again (a read never validates), so a store written before this limit reads as before.
The agent layer cuts what it writes to fit (:mod:`memvault.agent.scope`)."""

_PATH_KEY_CHARS = 40  # a dict key in an error message is cut to this many characters


@overload
def validate_time(value: Any, field: str, *, optional: Literal[False] = False) -> float: ...
@overload
def validate_time(value: Any, field: str, *, optional: bool) -> float | None: ...
def validate_time(value: Any, field: str, *, optional: bool = False) -> float | None:
    """Check one time: finite Unix seconds (UTC) in ``[0, MAX_SECONDS)``.

    Args:
        value: An int or float (not bool); ``None`` if ``optional``.
        field: Its name in the message, e.g. ``"created_at"``.
        optional: Whether ``None`` (no time, e.g. never expires) is allowed.

    Returns:
        The time as a float, or ``None``.

    Raises:
        InvalidArgumentError: If it is not such a number (NaN, infinity, negative, 1e300, a
            string, a bool).
    """
    if value is None and optional:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (isinstance(value, int) or math.isfinite(value))
        or not 0 <= value < MAX_SECONDS
    ):
        allowed = " or None" if optional else ""
        raise InvalidArgumentError(
            f"{field} must be finite Unix seconds from 0 to {MAX_SECONDS:.0e}{allowed}, "
            f"got {shown(value)}"
        )
    return float(value)


@overload
def validate_moment(value: Any, field: str, *, optional: Literal[False] = False) -> float: ...
@overload
def validate_moment(value: Any, field: str, *, optional: bool) -> float | None: ...
def validate_moment(value: Any, field: str, *, optional: bool = False) -> float | None:
    """Check a time given by a caller: Unix seconds, or a :class:`datetime.datetime`.

    A ``datetime`` without a time zone is taken as UTC (as stored times are), one with a
    time zone is converted; then the rule of :func:`validate_time` applies.

    Args:
        value: An int, a float or a ``datetime``; ``None`` if ``optional``.
        field: Its name in the message, e.g. ``"as_of"``.
        optional: Whether ``None`` is allowed.

    Returns:
        Unix seconds as a float, or ``None``.

    Raises:
        InvalidArgumentError: If it is neither, or out of range (before 1970 too).
    """
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
        try:
            value = aware.timestamp()
        except (OverflowError, ValueError) as error:  # pragma: no cover - platform limits
            raise InvalidArgumentError(f"{field} {value!r} is out of range: {error}") from None
    if isinstance(value, str):
        raise InvalidArgumentError(
            f"{field} must be Unix seconds or a datetime, got the string {shown(value)}; "
            "parse it first, e.g. datetime.fromisoformat(...)"
        )
    return validate_time(value, field, optional=optional)


def validate_validity(valid_from: float, valid_to: float | None) -> None:
    """Check that a validity span is not empty: ``valid_to`` is ``None`` or after ``valid_from``.

    Raises:
        InvalidArgumentError: If ``valid_to <= valid_from`` (Unix seconds).
    """
    if valid_to is not None and valid_to <= valid_from:
        raise InvalidArgumentError(
            f"valid_to ({valid_to:.0f}) must be after valid_from ({valid_from:.0f}): a memory "
            "holds from valid_from until valid_to; give a later valid_to, or None if it still "
            "holds"
        )


def validate_ttl(ttl: Any, field: str = "ttl") -> float | None:
    """Check a time to live: positive, finite seconds below :data:`MAX_TTL`, or ``None``.

    Args:
        ttl: Seconds until an item expires; ``None`` means never.
        field: Its name in the message, e.g. ``"max_age"``.

    Returns:
        The TTL as a float, or ``None``.

    Raises:
        InvalidArgumentError: On anything else (0, a negative, NaN, infinity, a string, a bool).
    """
    if ttl is None:
        return None
    if (
        isinstance(ttl, bool)
        or not isinstance(ttl, (int, float))
        or not (isinstance(ttl, int) or math.isfinite(ttl))
        or not 0 < ttl < MAX_TTL
    ):
        raise InvalidArgumentError(
            f"{field} must be a positive, finite number of seconds below {MAX_TTL:.0e}, or None "
            f"(never expire), got {shown(ttl)}"
        )
    return float(ttl)


class MemoryItem(BaseModel):
    """One stored memory, as the store returns it.

    Times are Unix timestamps in seconds (UTC), as :func:`time.time` gives them, finite and in
    ``[0, MAX_SECONDS)`` (:func:`validate_time`); a line of an export file is checked against
    this model, so an import refuses the times ``put`` refuses.

    Attributes:
        namespace: Where the item lives, e.g. ``("users", "alice")``.
        key: Its key, unique within the namespace.
        value: The stored dict; ``value["text"]`` is the embedded part, the rest is metadata.
        created_at: When the key was first written (kept when the item is overwritten).
        updated_at: When the item was last written.
        expires_at: When the item expires, or ``None`` if it never does.
        valid_from: When what it says began to hold in the world (default: when it was
            written, its ``updated_at``, or the ``timestamp`` it was written with).
        valid_to: When it stopped holding (it was superseded or ended, see
            :meth:`MemoryStore.supersede <memvault.MemoryStore.supersede>`), or ``None`` if
            it still holds. A search returns what holds now unless asked ``as_of`` another
            time (:class:`~memvault.model.Validity`).
        provenance: Who wrote this version and in which session
            (:class:`~memvault.model.Provenance`: ``origin`` one of
            :data:`~memvault.model.ORIGINS`, ``session`` or ``None``); ``("api", None)`` for a
            record written before provenance existed.
        score: Relevance when the item came from a search with a query, ``None`` otherwise;
            ``score_type`` says what it is.
        score_type: ``"cosine"`` (cosine similarity of embeddings, in ``[-1, 1]``, dense
            search), ``"bm25"`` (Okapi BM25 with :mod:`memvault.lexical`'s constants and the
            statistics of the namespace searched, ``> 0``, lexical search) or ``"hybrid"``
            (the fused score of hybrid search: min-max normalised BM25 and cosine combined, in
            ``[0, 1]`` for the fused block and ``[-1, 0]`` below it, relative to one search;
            see :mod:`memvault.fusion`); ``None`` without a score. :data:`SCORE_SCALES` says
            each in a line.

    Raises:
        pydantic.ValidationError: On construction with a field of the wrong type or a time
            out of range (the message names the field).
    """

    model_config = ConfigDict(frozen=True)

    namespace: Namespace = Field(description="Namespace tuple, e.g. ('users', 'alice').")
    key: str = Field(description="Key, unique within the namespace.")
    value: dict[str, Any] = Field(description="Stored value; 'text' is the embedded part.")
    created_at: float = Field(description="First write, Unix seconds (UTC).")
    updated_at: float = Field(description="Last write, Unix seconds (UTC).")
    expires_at: float | None = Field(default=None, description="Expiry, Unix seconds (UTC).")
    valid_from: float = Field(
        default=None,  # type: ignore[assignment]  # filled from updated_at (_validity)
        description="Holds in the world from, Unix seconds (UTC); default updated_at.",
    )
    valid_to: float | None = Field(
        default=None, description="Held until, Unix seconds (UTC); None: still holds."
    )
    provenance: Provenance = Field(
        default_factory=Provenance,
        description="Who wrote this version ('user', 'assistant', 'tool', 'extractor', 'api', "
        "'import') and in which session.",
    )
    score: float | None = Field(default=None, description="Search relevance, if searched.")
    score_type: ScoreType | None = Field(
        default=None, description="What score is: 'cosine', 'bm25' or 'hybrid'."
    )

    @field_validator("created_at", "updated_at", mode="before")
    @classmethod
    def _time(cls, value: Any, info: Any) -> float:
        return validate_time(value, info.field_name)

    @model_validator(mode="before")
    @classmethod
    def _validity(cls, data: Any) -> Any:
        """An item of an export written before validity existed holds from its updated_at."""
        if isinstance(data, dict) and data.get("valid_from") is None and "updated_at" in data:
            return {**data, "valid_from": data["updated_at"]}
        return data

    @field_validator("valid_from", mode="before")
    @classmethod
    def _valid_from(cls, value: Any, info: Any) -> float:
        return validate_time(value, info.field_name)

    @field_validator("valid_to", mode="before")
    @classmethod
    def _valid_to(cls, value: Any, info: Any) -> float | None:
        return validate_time(value, info.field_name, optional=True)

    @model_validator(mode="after")
    def _span(self) -> MemoryItem:
        validate_validity(self.valid_from, self.valid_to)
        return self

    @field_validator("expires_at", mode="before")
    @classmethod
    def _expiry(cls, value: Any, info: Any) -> float | None:
        return validate_time(value, info.field_name, optional=True)

    @property
    def text(self) -> str:
        """The embedded text, ``value["text"]``."""
        return self.value["text"]

    @classmethod
    def from_record(
        cls, record: Record, score: float | None = None, score_type: ScoreType | None = None
    ) -> MemoryItem:
        """The item a backend's record holds, with a search's score if it was found by one.

        Not validated again: a record holds what the store validated when it was written,
        and a read should not pay for checking it twice. The item is the one
        ``model_construct`` gives with every field, built directly: a search makes one per
        hit, and pydantic's generic construction cost more than the rest of a page's Python.

        Args:
            record: As a backend stores it.
            score: The search's score, or ``None``.
            score_type: What ``score`` is (kept only with a score).

        Returns:
            The item.
        """
        item = cls.__new__(cls)
        fields = {
            "namespace": record.namespace,
            "key": record.key,
            "value": record.value,
            "created_at": record.created_at,
            "updated_at": record.updated_at,
            "expires_at": record.expires_at,
            "valid_from": record.valid_from,
            "valid_to": record.valid_to,
            "provenance": record.provenance,
            "score": score,
            "score_type": score_type if score is not None else None,
        }
        _set = object.__setattr__  # the model is frozen
        _set(item, "__dict__", fields)
        _set(item, "__pydantic_fields_set__", set(fields))
        _set(item, "__pydantic_extra__", None)
        _set(item, "__pydantic_private__", None)
        return item


def _key_step(key: str) -> str:
    r"""A dict key as a path step: ``["a"]``, JSON with ASCII escapes (``["a\udc00"]``), cut."""
    return f"[{json.dumps(key if len(key) <= _PATH_KEY_CHARS else key[:_PATH_KEY_CHARS] + '...')}]"


_Path = tuple[Any, str] | str
"""A path in a value, kept as ``(parent path, step)`` links and joined only for a message."""


def _path(path: _Path) -> str:
    """The path as text, e.g. ``value["a"][3]``; a long one keeps its first and last steps."""
    steps = []
    while isinstance(path, tuple):
        path, step = path
        steps.append(step)
    steps.reverse()
    if len(steps) > 12:
        steps = [*steps[:6], f"...({len(steps) - 9} more)...", *steps[-3:]]
    return path + "".join(steps)


def _digits(number: int) -> str:
    """How many decimal digits an int has, without ``str()`` (limited to 4,300 digits)."""
    bits = abs(number).bit_length()
    if bits > 100_000:
        return "more than 30,000"
    digits = int((bits - 1) * math.log10(2)) + 1
    return str(digits + 1 if abs(number) >= 10**digits else digits)


_NUL = (
    "holds U+0000 (NUL), which PostgreSQL's text cannot hold, so no backend stores it (an "
    "export stays importable everywhere); remove it"
)


def _problem(item: Any) -> str | None:
    """What is wrong with a scalar (or a non-JSON object) in a value, or ``None`` if fine."""
    kind = type(item)
    if item is None or kind is bool:
        return None
    if kind is int:
        if MIN_INT <= item <= MAX_INT:
            return None
        return (
            f"is an int of {_digits(item)} digits, outside the signed 64-bit range SQLite and "
            f"Chroma hold ({MIN_INT} to {MAX_INT}); store it as a string"
        )
    if kind is float:
        if math.isfinite(item):
            return None
        return f"is {item!r}; JSON cannot store NaN or infinity: use a finite number or None"
    if kind is str:
        if not is_utf8(item):
            return (
                "holds a lone surrogate (such as U+D800), which UTF-8 and JSON cannot store; "
                "remove it or decode the text with errors='replace'"
            )
        if "\x00" in item:
            return _NUL
        return None
    if kind is tuple:
        return (
            "is a tuple, which would not round-trip through JSON (it comes back a list); use a list"
        )
    for base in (str, int, float, dict, list):
        if isinstance(item, base):
            return (
                f"is of type {kind.__name__}, a subclass of {base.__name__} that would not "
                f"round-trip through JSON (it comes back a plain {base.__name__}); convert it "
                f"with {base.__name__}(...)"
            )
    return (
        f"is of type {kind.__name__}, which JSON cannot store; use str, int, float, bool, None, "
        "lists and dicts with string keys"
    )


def validate_value(
    value: Any, *, where: str = "value", max_text_chars: int | None = MAX_TEXT_CHARS
) -> dict[str, Any]:
    """Check that a value can be stored and will round-trip exactly.

    Args:
        value: A dict with a non-empty ``"text"`` string of at most ``max_text_chars``
            characters and at most :data:`MAX_FIELDS` entries, all JSON as
            :func:`validate_json` checks it.
        where: How the message names the value, e.g. ``"items[3] value"``.
        max_text_chars: Most characters of ``"text"``: :data:`MAX_TEXT_CHARS` for a value
            being written; ``None`` for a value as it was once stored (a history entry's).

    Returns:
        The value, unchanged.

    Raises:
        InvalidValueError: If it is not a dict, lacks a non-empty ``text``, has a longer
            ``text`` than ``max_text_chars``, has more than :data:`MAX_FIELDS` entries, or
            breaks a rule of :func:`validate_json` (a tuple, a set, a non-string dict key,
            NaN, a 401-digit int, an object, a lone surrogate, a NUL, nesting deeper than
            :data:`MAX_DEPTH`); the message names the path.
    """
    if type(value) is not dict:
        raise InvalidValueError(
            f"{where} must be a dict such as {{'text': 'Alice likes tea'}}, got "
            f"{type(value).__name__}"
        )
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidValueError(
            f'{where}["text"] must be a non-empty string (it is what gets embedded), got '
            f"{shown(text)}"
        )
    if max_text_chars is not None and len(text) > max_text_chars:
        raise InvalidValueError(
            f'{where}["text"] has {len(text):,} characters, more than the {max_text_chars:,} '
            "a memory may hold (memvault.items.MAX_TEXT_CHARS); split it into several "
            "memories, or store a summary and keep the document elsewhere"
        )
    if len(value) > MAX_FIELDS:
        raise InvalidValueError(
            f"{where} has {len(value)} fields, more than {MAX_FIELDS} (MAX_FIELDS); group them "
            "under a few fields, e.g. {'text': ..., 'scores': {...}}"
        )
    return validate_json(value, where=where)


def validate_json(data: Any, *, where: str = "value", max_depth: int = MAX_DEPTH) -> Any:
    """Check that data is JSON that round-trips exactly and every backend can hold.

    The walk is iterative (no recursion) and stops at the first problem (depth first), which
    the message names by its path, e.g. ``value["a"][3]["b"] is nan; ...``.

    Args:
        data: Dicts with ``str`` keys, lists, str, int, float, bool, None (exactly these
            types, so that it round-trips), floats finite, ints from :data:`MIN_INT` to
            :data:`MAX_INT`, strings and keys UTF-8 (no lone surrogate) without NUL, at most
            ``max_depth`` containers deep.
        where: How the message names the data, e.g. ``"value"``.
        max_depth: Most containers nested, ``data`` itself counted (:data:`MAX_DEPTH`; less
            for data that is stored inside a value).

    Returns:
        The data, unchanged.

    Raises:
        InvalidValueError: If it breaks a rule above; the message names the path.
    """
    stack: list[tuple[Any, _Path, int]] = [(data, where, 1)]
    while stack:
        item, path, depth = stack.pop()
        kind = type(item)
        if kind is list:
            if depth > max_depth:
                raise _too_deep(path, max_depth)
            stack.extend(
                (item[i], (path, f"[{i}]"), depth + 1) for i in range(len(item) - 1, -1, -1)
            )
        elif kind is dict:
            if depth > max_depth:
                raise _too_deep(path, max_depth)
            children = []
            for position, (key, child) in enumerate(item.items()):
                if type(key) is not str:
                    raise InvalidValueError(
                        f"{_path(path)} has dict key {shown(key)} ({type(key).__name__}) at "
                        f"position {position}; JSON keys are strings, so it would not "
                        "round-trip: use a string key"
                    )
                if not is_utf8(key):
                    raise InvalidValueError(
                        f"{_path(path)} has dict key {_key_step(key)[1:-1]} with a lone "
                        "surrogate, which UTF-8 and JSON cannot store; remove it"
                    )
                if "\x00" in key:
                    raise InvalidValueError(f"{_path(path)} has a dict key that {_NUL}")
                children.append((child, (path, _key_step(key)), depth + 1))
            stack.extend(reversed(children))
        else:
            problem = _problem(item)
            if problem is not None:
                raise InvalidValueError(f"{_path(path)} {problem}")
    return data


def _too_deep(path: _Path, max_depth: int) -> InvalidValueError:
    return InvalidValueError(
        f"{_path(path)} nests deeper than {max_depth} dicts and lists (MAX_DEPTH is "
        f"{MAX_DEPTH}); flatten the value or store the deep part as a JSON string"
    )


def validate_items(items: Any, *, last_wins: bool = False) -> dict[str, dict[str, Any]]:
    """Check a batch of ``(key, value)`` pairs, as ``put_many`` takes them, before any write.

    A key given twice is refused, as an export file that holds one key twice is: which of
    the two values was meant cannot be told.

    Args:
        items: Any iterable (a list, a generator) of pairs, each a tuple (or list) of exactly
            two: a key (:func:`~memvault.namespace.validate_key`) and a value
            (:func:`validate_value`).
        last_wins: Keep the last value of a key given twice instead, as the frameworks'
            batch writes do (LangChain's ``BaseStore.mset``, LangGraph's ``BaseStore.batch``);
            for their adapters.

    Returns:
        ``{key: value}`` in first-seen key order.

    Raises:
        InvalidArgumentError: If ``items`` is not an iterable of pairs (``None``, a dict, a
            string, a pair of the wrong length such as ``("k",)``); the message names the
            index.
        InvalidKeyError, InvalidValueError: On a bad key or value, naming its index; or
            (without ``last_wins``) on a key given twice, naming the key and both indexes.
    """
    example = "e.g. [('tea', {'text': 'Alice likes tea'})]"
    if isinstance(items, Mapping):
        raise InvalidArgumentError(
            f"items must be (key, value) pairs, {example}, got a {type(items).__name__}; pass "
            "list(mapping.items()) for a dict of values by key"
        )
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise InvalidArgumentError(
            f"items must be an iterable of (key, value) pairs, {example}, got "
            f"{type(items).__name__} {shown(items)}"
        )
    batch: dict[str, dict[str, Any]] = {}
    first_index: dict[str, int] = {}
    for index, pair in enumerate(items):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            shape = (
                f"a {type(pair).__name__} of {len(pair)}"
                if isinstance(pair, (tuple, list))
                else f"{type(pair).__name__} {shown(pair)}"
            )
            raise InvalidArgumentError(
                f"items[{index}] must be a (key, value) pair, {example}, got {shape}"
            )
        key, value = pair
        try:
            validate_key(key)
        except InvalidKeyError as error:
            raise InvalidKeyError(f"items[{index}]: {error}") from None
        if key in batch and not last_wins:
            raise InvalidKeyError(
                f"items[{first_index[key]}] and items[{index}] both hold key {key!r:.80}; a "
                "batch writes each key once: keep one of them"
            )
        first_index.setdefault(key, index)
        batch[key] = validate_value(value, where=f"items[{index}] value")
    return batch
