"""Provenance and trust: who wrote a memory, and whose memories may be put into a prompt.

Every record carries a :class:`~memvault.model.Provenance`: its ``origin`` (one of
:data:`~memvault.model.ORIGINS`) and the ``session`` it was said in. A write that gives none
takes its origin from the history ``source`` it is written with, where that source names one
(:func:`origin_of_source`: ``"tool"``, ``"extractor"``, ``"import"``, ``"api"``, ``"user"``,
``"assistant"``, and the agent layer's ``"turn"``, a user's turn), else ``"api"``.

A **trust** policy (:class:`memvault.AgentMemory`'s ``trust``) is the set of origins whose
memories may be recalled into a system prompt or memory block (:func:`validate_trust`,
:data:`DEFAULT_TRUST`); the others stay stored and searchable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from memvault.errors import InvalidArgumentError, shown
from memvault.model import ORIGINS, Origin, Provenance
from memvault.namespace import is_utf8

__all__ = [
    "DEFAULT_TRUST",
    "origin_of_source",
    "validate_provenance",
    "validate_trust",
]

_SOURCE_ORIGINS: Final[dict[str, Origin]] = {"turn": "user"}
"""History sources that are not origins but name one: the agent layer's ``"turn"`` is a
user's turn."""

DEFAULT_TRUST: Final[frozenset[Origin]] = frozenset(ORIGINS) - {"assistant"}
"""The origins whose memories a prompt gets by default: all but ``"assistant"``.

What the assistant said is the model's own output, possibly steered by a hostile document or
tool result, so a memory of it would feed that back into every later prompt. ``"tool"`` stays
in: the memory tools' ``remember`` is how a model stores what the user asks it to ("remember
that I am allergic to kiwi"), each text passes the poisoning firewall
(:mod:`memvault.firewall`), and leaving it out would make such a request never reach a later
prompt."""


def origin_of_source(source: str) -> Origin:
    """The origin a write from the history ``source`` gets unless it gives its own.

    Args:
        source: A checked history source (:func:`memvault.history.validate_source`).

    Returns:
        ``source`` itself if it is one of :data:`~memvault.model.ORIGINS`, ``"user"`` for
        ``"turn"``, else ``"api"``.
    """
    if source in ORIGINS:
        return source
    return _SOURCE_ORIGINS.get(source, "api")


def validate_provenance(provenance: Any, source: str) -> Provenance:
    """A write's provenance, checked, or the one its ``source`` gives.

    Args:
        provenance: A :class:`~memvault.model.Provenance`, or ``None``: origin
            :func:`origin_of_source` of ``source``, no session.
        source: The write's checked history source.

    Returns:
        The provenance.

    Raises:
        InvalidArgumentError: If ``provenance`` is not a Provenance or ``None``, its origin
            is not one of :data:`~memvault.model.ORIGINS`, or its session is not ``None`` or
            a non-empty UTF-8 str (the message names the field).
    """
    if provenance is None:
        return Provenance(origin_of_source(source))
    if not isinstance(provenance, Provenance):
        raise InvalidArgumentError(
            "provenance must be a memvault.model.Provenance(origin, session) or None, got "
            f"{type(provenance).__name__} {shown(provenance)}"
        )
    if provenance.origin not in ORIGINS:
        raise InvalidArgumentError(
            f"provenance.origin must be one of {', '.join(ORIGINS)}, got {shown(provenance.origin)}"
        )
    session = provenance.session
    if session is not None and not (isinstance(session, str) and session and is_utf8(session)):
        raise InvalidArgumentError(
            "provenance.session must be None or a non-empty UTF-8 string such as 'thread-1', "
            f"got {shown(session)}"
        )
    return provenance


def validate_trust(trust: Any) -> frozenset[Origin]:
    """Check a trust policy: the origins whose memories a prompt may get.

    Args:
        trust: An iterable of origins (a set, list or tuple of strings), e.g. ``{"user",
            "extractor"}``; empty: no memory is put into a prompt.

    Returns:
        The origins, as a frozenset.

    Raises:
        InvalidArgumentError: If ``trust`` is a string or not iterable, or an origin is not
            one of :data:`~memvault.model.ORIGINS` (the message names the field and them).
    """
    if isinstance(trust, (str, bytes)) or not isinstance(trust, Iterable):
        raise InvalidArgumentError(
            f"trust must be a set of origins from {', '.join(ORIGINS)} (e.g. "
            f"{{'user', 'extractor'}}), got {type(trust).__name__} {shown(trust)}"
        )
    origins = list(trust)
    unknown = [origin for origin in origins if origin not in ORIGINS]
    if unknown:
        raise InvalidArgumentError(
            f"trust holds {shown(unknown[0])}, which is no origin: give origins from "
            f"{', '.join(ORIGINS)}"
        )
    return frozenset(origins)
