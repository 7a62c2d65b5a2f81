"""Checks of the store's search options: limits, offsets and search modes.

Each raises :class:`~memvault.errors.InvalidArgumentError` naming the option and its allowed
range. Times and TTLs are checked in :mod:`memvault.items` (:func:`~memvault.items.validate_time`,
:func:`~memvault.items.validate_ttl`), with the values they belong to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memvault.errors import InvalidArgumentError, shown
from memvault.model import SEARCH_MODES, SearchMode
from memvault.namespace import is_utf8


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()
"""Marks an option left out where ``None`` means something (``ttl=None``: never expire)."""

MAX_COUNT = 1_000_000
"""Upper bound of ``limit`` and ``offset``."""

DEFAULT_SEARCH_MODE: SearchMode = "hybrid"
"""The default of ``search(mode=...)``: hybrid won on LoCoMo (see ``bench/README.md``)."""


def check_count(value: Any, field: str, *, minimum: int) -> int:
    """An int from ``minimum`` to :data:`MAX_COUNT` (``limit``, ``offset``, ``max_depth``).

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_COUNT:
        raise InvalidArgumentError(
            f"{field} must be an int from {minimum} to {MAX_COUNT}, got {value!r:.80}"
        )
    return value


MAX_K = 1000
"""Upper bound of how many memories one recall returns (``k``, ``similarity_top_k``)."""


def check_k(k: Any, field: str = "k") -> int:
    """How many memories a recall returns: an int from 1 to :data:`MAX_K`.

    Args:
        k: The value given.
        field: Its name in the message (``"k"``, ``"similarity_top_k"``).

    Returns:
        ``k`` unchanged.

    Raises:
        InvalidArgumentError: Otherwise (names ``field``).
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise InvalidArgumentError(f"{field} must be an int from 1 to {MAX_K}, got {shown(k)}")
    return k


def check_mode(mode: Any, served: tuple[SearchMode, ...] = SEARCH_MODES) -> SearchMode:
    """A search mode the backend serves.

    Raises:
        InvalidArgumentError: If ``mode`` is unknown, or not in ``served`` (the backend's
            :attr:`~memvault.backends.base.Backend.search_modes`).
    """
    if mode not in SEARCH_MODES:
        raise InvalidArgumentError(
            f"mode must be one of {', '.join(map(repr, SEARCH_MODES))}, got {mode!r:.80}"
        )
    if mode not in served:
        raise InvalidArgumentError(
            f"mode={mode!r} needs a lexical (BM25) index, which this backend does not keep "
            f"(a Chroma server, say); use {', '.join(map(repr, served))}"
        )
    return mode


def check_query(query: Any) -> str | None:
    """A search query as given: a UTF-8 ``str`` (blank allowed) or ``None``.

    Args:
        query: The query argument of a search or a recall.

    Returns:
        ``query`` unchanged.

    Raises:
        InvalidArgumentError: If ``query`` is neither (a lone surrogate is not UTF-8).
    """
    if query is not None and (not isinstance(query, str) or not is_utf8(query)):
        raise InvalidArgumentError(
            f"query must be a UTF-8 str or None, got {type(query).__name__} {shown(query)}"
        )
    return query


def check_texts(texts: Any, field: str, example: str, *, utf8: bool = True) -> list[str]:
    """A list from an iterable of strings (not one string, which would be its letters).

    Args:
        texts: The value given.
        field: The argument's name, for the error.
        example: A value to show in the error, e.g. ``"['mem-3f2a...']"``.
        utf8: Whether each must be UTF-8 too (no lone surrogate), as what is stored must be.

    Returns:
        The strings, in order.

    Raises:
        InvalidArgumentError: If ``texts`` is a str, bytes, a mapping or not iterable, or holds
            something other than a (UTF-8) str.
    """
    if isinstance(texts, (str, bytes, Mapping)) or not isinstance(texts, Iterable):
        raise InvalidArgumentError(
            f"{field} must be a list of strings such as {example}, got "
            f"{type(texts).__name__} {shown(texts)}"
        )
    texts = list(texts)
    for index, text in enumerate(texts):
        if not isinstance(text, str) or (utf8 and not is_utf8(text)):
            raise InvalidArgumentError(
                f"{field}[{index}] must be a {'UTF-8 ' if utf8 else ''}string, got "
                f"{type(text).__name__} {shown(text)}"
            )
    return texts


def check_utf8(text: Any, field: str) -> str:
    """One string as given: a UTF-8 ``str`` (blank allowed), e.g. a text to embed.

    Args:
        text: The value given.
        field: The argument's name, for the error.

    Returns:
        ``text`` unchanged.

    Raises:
        InvalidArgumentError: If ``text`` is not a UTF-8 str (a lone surrogate is not UTF-8).
    """
    if not isinstance(text, str) or not is_utf8(text):
        raise InvalidArgumentError(
            f"{field} must be a UTF-8 string, got {type(text).__name__} {shown(text)}"
        )
    return text
