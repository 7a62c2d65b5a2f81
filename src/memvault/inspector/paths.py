"""A namespace and key written as a page's URL, and the URL read back into them.

Each namespace segment and the key is one percent-encoded path segment
(:func:`url_segment`: ``/ns/users/a%2Fb`` is ``("users", "a/b")``). A segment that is exactly
``.`` or ``..`` would be a dot segment, which a browser resolves before sending (encoded as
``%2E`` too), so such a segment is escaped with a ``~`` in front (``~.``, ``~..``); so that an
escape reads back as one meaning, a segment of tildes then one or two dots gets one ``~`` more
too (``~.`` is written ``~~.``). Every namespace and key a store may hold thus has a URL a
browser keeps as written.

They are read from the raw path (ASGI's ``raw_path``), split on ``/`` before any ``%2F`` is
decoded, so a ``/`` inside a segment never splits it and ``..%2F`` is just the text ``../`` of
one segment, looked up in the store like any other (nothing here touches a file). The store's
own checks (:func:`memvault.namespace.validate_namespace`,
:func:`~memvault.namespace.validate_key`) then refuse what no namespace or key may be (an empty
segment, a NUL).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote_to_bytes

from memvault.errors import InvalidArgumentError, InvalidNamespaceError
from memvault.model import Namespace
from memvault.namespace import validate_key, validate_namespace

_ESCAPED = re.compile(r"~*\.\.?")
"""A segment written with one ``~`` more in front: ``.`` or ``..``, after any tildes."""


def url_segment(part: str) -> str:
    """One namespace segment or key as one URL path segment, read back by the readers here.

    Percent-encoded (``/`` as ``%2F``), with a ``~`` put in front of ``.`` or ``..`` after any
    tildes (``.`` as ``~.``, ``~..`` as ``~~..``), so that no segment is a dot segment a
    browser resolves.

    Args:
        part: A namespace segment or a key (any text).

    Returns:
        The path segment, ASCII.
    """
    return quote(f"~{part}" if _ESCAPED.fullmatch(part) else part, safe="")


def _unescaped(segment: str) -> str:
    """A decoded path segment as :func:`url_segment` was given it: one ``~`` less if escaped."""
    return segment[1:] if segment.startswith("~") and _ESCAPED.fullmatch(segment) else segment


def _raw_segments(scope: dict[str, Any] | Any, prefix: str) -> list[str]:
    """The decoded (and unescaped) path segments after ``/<prefix>/``.

    Raises:
        InvalidArgumentError: If the raw path does not start with ``/<prefix>/`` (its
            letters percent-encoded), or a segment is not UTF-8 once decoded.
    """
    raw: bytes = (scope.get("raw_path") or quote(scope["path"]).encode()).split(b"?", 1)[0]
    start = f"/{prefix}/".encode()
    if not raw.startswith(start):  # the route's own segment percent-encoded: /%6Es/...
        raise InvalidArgumentError(
            f"the URL must start with {start.decode()} as written, not encoded: follow the "
            "inspector's own links"
        )
    rest = raw[len(start) :]
    if rest.endswith(b"/"):
        rest = rest[:-1]
    segments = []
    for part in rest.split(b"/"):
        try:
            segments.append(_unescaped(unquote_to_bytes(part).decode("utf-8")))
        except UnicodeDecodeError:
            raise InvalidArgumentError(
                f"the URL's segment {part[:80].decode('latin-1')!r} is not UTF-8 once decoded: "
                "follow the inspector's own links"
            ) from None
    return segments


def read_namespace(scope: Any, prefix: str) -> Namespace:
    """The namespace of ``/<prefix>/<segment>/...``.

    Args:
        scope: The request's ASGI scope (``request.scope``).
        prefix: The route's first segment, e.g. ``"ns"`` or ``"export"``.

    Raises:
        InvalidNamespaceError: If it names no namespace a store may hold (an empty segment,
            a NUL, too many or too long segments).
        InvalidArgumentError: If a segment is not UTF-8.
    """
    return validate_namespace(tuple(_raw_segments(scope, prefix)))


def read_item(scope: Any, prefix: str) -> tuple[Namespace, str]:
    """The namespace and key of ``/<prefix>/<segment>/.../<key>``.

    Args:
        scope: The request's ASGI scope.
        prefix: The route's first segment, e.g. ``"item"`` or ``"edit"``.

    Raises:
        InvalidNamespaceError, InvalidKeyError: If the URL names no namespace and key a store
            may hold (a key alone without a namespace too).
        InvalidArgumentError: If a segment is not UTF-8.
    """
    segments = _raw_segments(scope, prefix)
    if len(segments) < 2:
        raise InvalidNamespaceError(
            f"/{prefix}/ needs a namespace and a key, as /{prefix}/users/alice/KEY; got "
            f"{'/'.join(segments)[:80]!r}"
        )
    return validate_namespace(tuple(segments[:-1])), validate_key(segments[-1])
