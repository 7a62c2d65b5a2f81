"""Namespaces: validation, prefix matching, path strings and templates.

A namespace is a tuple of strings such as ``("users", "alice")``. Search and list cover a
namespace and everything below it, matched segment by segment: ``("users", "al")`` never
matches ``("users", "alice")``.

Bounds, checked before anything else so that an absurd input is refused at once: at most
:data:`MAX_NAMESPACE_DEPTH` segments of at most :data:`MAX_SEGMENT_LENGTH` characters each, and
keys of at most :data:`MAX_KEY_LENGTH` characters.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from memvault.errors import InvalidKeyError, InvalidNamespaceError, shown
from memvault.model import Namespace

MAX_NAMESPACE_DEPTH = 32
"""Most segments a namespace may have. Every record carries its namespace and every prefix of
it is indexed, so the cost of a write grows with the depth; 32 leaves room for any hierarchy
(``("orgs", org, "users", user, "threads", thread)`` is 6)."""

MAX_SEGMENT_LENGTH = 256
"""Most characters in one namespace segment: room for an e-mail address (254) or a URL-safe
id, not for a document."""

MAX_KEY_LENGTH = 1024
"""Most characters in an item key: room for an ingested turn's ``<file name>-<hash>:<turn>``
with a file name of the longest a file system allows (255)."""


def is_utf8(text: str) -> bool:
    """Whether a ``str`` can be stored: it encodes to UTF-8 (no lone surrogate such as U+D800)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def validate_namespace(namespace: Any, *, allow_empty: bool = False) -> Namespace:
    """Check a namespace and return it as a tuple.

    Args:
        namespace: A tuple (or list) of strings, e.g. ``("users", "alice")``.
        allow_empty: Whether ``()`` is accepted (it is for prefixes, meaning "everything").

    Returns:
        The namespace as a ``tuple[str, ...]``.

    Raises:
        InvalidNamespaceError: If it is not a tuple/list, is empty (unless allowed), has more
            than :data:`MAX_NAMESPACE_DEPTH` segments, or has a segment that is not a non-empty
            UTF-8 ``str`` of at most :data:`MAX_SEGMENT_LENGTH` characters free of NUL
            characters and not blank (only whitespace, e.g. ``" "``: a user id that went
            missing). The message names the bad segment and its position.
    """
    if isinstance(namespace, str) or not isinstance(namespace, (tuple, list)):
        raise InvalidNamespaceError(
            f"namespace must be a tuple of strings such as ('users', 'alice'), "
            f"got {type(namespace).__name__} {shown(namespace)}"
        )
    if not namespace and not allow_empty:
        raise InvalidNamespaceError("namespace must have at least one segment, got ()")
    if len(namespace) > MAX_NAMESPACE_DEPTH:
        raise InvalidNamespaceError(
            f"namespace has {len(namespace)} segments, more than {MAX_NAMESPACE_DEPTH} "
            f"(MAX_NAMESPACE_DEPTH); use fewer levels, e.g. ('users', 'alice')"
        )
    for position, segment in enumerate(namespace):
        if not isinstance(segment, str):
            raise InvalidNamespaceError(
                f"namespace segment {position} must be a str, got "
                f"{type(segment).__name__} {shown(segment)} in {shown(tuple(namespace))}"
            )
        if not segment.strip():
            what = f"blank ({shown(segment)})" if segment else "empty"
            raise InvalidNamespaceError(
                f"namespace segment {position} is {what} in {shown(tuple(namespace))}; every "
                "segment must be a string with some text other than spaces, e.g. a user id"
            )
        if len(segment) > MAX_SEGMENT_LENGTH:
            raise InvalidNamespaceError(
                f"namespace segment {position} has {len(segment)} characters, more than "
                f"{MAX_SEGMENT_LENGTH} (MAX_SEGMENT_LENGTH); use a shorter id, e.g. a hash of it"
            )
        if "\x00" in segment or not is_utf8(segment):
            raise InvalidNamespaceError(
                f"namespace segment {position} {shown(segment)} contains a NUL character or a "
                "lone surrogate; remove it"
            )
    return tuple(namespace)


def validate_key(key: Any) -> str:
    """Check an item key.

    Args:
        key: A non-empty UTF-8 ``str`` (no lone surrogate) without NUL characters, of at most
            :data:`MAX_KEY_LENGTH` characters.

    Returns:
        The key unchanged.

    Raises:
        InvalidKeyError: If the key is not such a string.
    """
    if not isinstance(key, str) or not key or "\x00" in key or not is_utf8(key):
        raise InvalidKeyError(
            f"key must be a non-empty UTF-8 string without NUL characters, got {shown(key)}"
        )
    if len(key) > MAX_KEY_LENGTH:
        raise InvalidKeyError(
            f"key has {len(key)} characters, more than {MAX_KEY_LENGTH} (MAX_KEY_LENGTH); use "
            "a shorter key, e.g. a hash of it"
        )
    return key


def has_prefix(namespace: Namespace, prefix: Namespace) -> bool:
    """Whether ``namespace`` equals ``prefix`` or lies below it, segment by segment."""
    return namespace[: len(prefix)] == prefix


def parse_namespace_path(path: str) -> Namespace:
    r"""Parse a namespace written with ``/`` between segments, as the CLI takes it.

    A segment that itself contains ``/`` or ``\`` writes it escaped with a backslash:
    ``users/a\/b`` is ``("users", "a/b")`` and ``a\\b`` is ``("a\b",)``.

    Args:
        path: For example ``"users/alice"``.

    Returns:
        The namespace tuple.

    Raises:
        InvalidNamespaceError: If a segment is empty (e.g. ``"users//alice"``) or a backslash
            escapes anything other than ``/`` or ``\``.
    """
    segments: list[str] = []
    current: list[str] = []
    chars = iter(path)
    for char in chars:
        if char == "\\":
            escaped = next(chars, None)
            if escaped not in ("/", "\\"):
                raise InvalidNamespaceError(
                    f"namespace path {path!r} has a backslash before {escaped or 'the end'!r}; "
                    "only '\\/' (a slash inside a segment) and '\\\\' (a backslash) are escapes"
                )
            current.append(escaped)
        elif char == "/":
            segments.append("".join(current))
            current = []
        else:
            current.append(char)
    segments.append("".join(current))
    return validate_namespace(tuple(segments))


def format_namespace_path(namespace: Sequence[str]) -> str:
    """Write a namespace as a ``/``-separated path; the inverse of :func:`parse_namespace_path`."""
    return "/".join(s.replace("\\", "\\\\").replace("/", "\\/") for s in namespace)


def check_template_value(name: str, value: Any, template: Sequence[str] | None = None) -> str:
    """A value that fills the field ``{name}`` of a namespace template: a non-empty str.

    Args:
        name: The field, e.g. ``"user_id"``.
        value: The value given (``None`` when the run gives none).
        template: The template it fills, named in the message; ``None`` for a value kept to
            fill templates later (a LlamaIndex memory block's ``user_id``).

    Returns:
        ``value`` unchanged.

    Raises:
        InvalidNamespaceError: If ``value`` is not a non-empty str, so that a missing user id
            never falls back to a shared or empty namespace.
    """
    if not isinstance(value, str) or not value:
        used = "templates need" if template is None else f"template {tuple(template)!r} needs"
        raise InvalidNamespaceError(
            f"namespace {used} {name!r} as a non-empty string, got {shown(value)}; pass it in the "
            "run's context or config"
        )
    return value


def template_fields(segment: str) -> list[str]:
    """The ``{name}`` fields of one namespace template segment, in order, each once.

    Args:
        segment: A segment such as ``"{user_id}"`` or ``"users"`` (a :meth:`str.format`
            template).

    Returns:
        The field names, e.g. ``["user_id"]``; ``[]`` for plain text.

    Raises:
        InvalidNamespaceError: If a field is positional (``{}``, ``{0}``) or not an
            identifier: use named fields such as ``{user_id}``; or if a brace is unbalanced
            (``"{user_id"``, ``"a}"``).
    """
    names: list[str] = []
    try:
        parsed = list(string.Formatter().parse(segment))
    except ValueError as error:
        raise InvalidNamespaceError(
            f"namespace template segment {segment!r} is not a template ({error}); close each "
            "field as in {user_id}, and write a literal brace twice ({{ or }})"
        ) from None
    for _, name, _, _ in parsed:
        if name is None or name in names:
            continue
        if name == "" or not name.isidentifier():
            raise InvalidNamespaceError(
                f"namespace template segment {segment!r} has field {{{name}}}; "
                "use named fields such as {user_id}"
            )
        names.append(name)
    return names


def resolve_namespace(template: Sequence[str], values: Mapping[str, Any]) -> Namespace:
    """Fill a namespace template such as ``("users", "{user_id}")`` from run values.

    Each segment is a :meth:`str.format` template; the values come from the run (a user id, a
    thread id), never from text a model wrote.

    Args:
        template: Segments, each plain text or with ``{name}`` fields.
        values: Values for the fields, e.g. ``{"user_id": "alice"}``.

    Returns:
        The resolved namespace.

    Raises:
        InvalidNamespaceError: If ``values`` is not a mapping, a field has no value, or its value
            is not a non-empty string (so that a missing user id never falls back to a shared
            or empty namespace); or a segment is not a template (:func:`template_fields`: an
            unbalanced brace) or has a format spec a string cannot take (``{user_id:d}``).
    """
    validate_namespace(template)
    if not isinstance(values, Mapping):
        raise InvalidNamespaceError(
            f"namespace template values must be a mapping such as {{'user_id': 'alice'}}, got "
            f"{type(values).__name__} {shown(values)}"
        )
    resolved = []
    for segment in template:
        fields = template_fields(segment)
        for name in fields:
            check_template_value(name, values.get(name), template)
        try:
            resolved.append(segment.format_map({name: values[name] for name in fields}))
        except ValueError as error:  # a format spec or conversion a str cannot take
            raise InvalidNamespaceError(
                f"namespace template segment {segment!r} cannot be filled ({error}); write "
                "fields as plain {user_id}"
            ) from None
    return validate_namespace(tuple(resolved))
