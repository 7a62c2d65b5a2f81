"""The one error hierarchy of memvault.

Every error memvault raises on purpose is a :class:`MemvaultError`, so callers can catch them all
with one ``except``. Messages name the field that was wrong and say how to fix it.
"""

from __future__ import annotations

import reprlib
from typing import Any


class MemvaultError(Exception):
    """Base class of every error memvault raises on purpose."""


class InvalidNamespaceError(MemvaultError, ValueError):
    """A namespace is not a non-empty tuple of non-blank strings without NUL characters."""


class InvalidKeyError(MemvaultError, ValueError):
    """An item key is not a non-empty string without NUL characters, or repeats in a batch."""


class InvalidValueError(MemvaultError, ValueError):
    """An item value is not a JSON-serialisable dict with a non-empty ``text`` string."""


class InvalidFilterError(MemvaultError, ValueError):
    """A metadata filter uses an unknown operator or an operand of the wrong type."""


class InvalidArgumentError(MemvaultError, ValueError):
    """An option such as ``limit``, ``offset``, ``ttl`` or ``k`` is out of range."""


class ConflictError(MemvaultError):
    """A compare-and-set write found the item changed since it was read.

    ``put(..., if_updated_at=T)`` writes only while the stored item's ``updated_at`` is ``T``
    (``T=None``: while the key holds no live item); otherwise nothing of the call is written.
    Read the item again and retry. Attributes ``namespace``, ``key`` and ``updated_at`` (what
    the store holds now, ``None`` if no live item) name the item.
    """

    def __init__(
        self, message: str, *, namespace: tuple[str, ...], key: str, updated_at: float | None
    ) -> None:
        super().__init__(message)
        self.namespace = namespace
        self.key = key
        self.updated_at = updated_at


class ItemNotFoundError(MemvaultError, LookupError):
    """An operation needs a live item at a key that holds none (or one closed already).

    :meth:`MemoryStore.supersede <memvault.MemoryStore.supersede>` raises it; a plain
    :meth:`~memvault.MemoryStore.get` returns ``None`` instead.
    """


class EmbedderMismatchError(MemvaultError):
    """The store was written by another embedder (name or dimension) than the one given."""


class EmbedderUnavailableError(MemvaultError):
    """An embedder cannot be loaded: a model, its tokenizer or a package is missing.

    The default model or its tokenizer is not installed, or a package an embedder string needs
    (``langchain``, a provider's integration) is not.
    """


class FirewallWeightsError(MemvaultError):
    """The poisoning firewall's classifier weights cannot be used.

    The weights file (``memvault/data/firewall_classifier.npz``) is missing, unreadable, lacks
    a field, or was trained on other sentence embeddings than the model memvault runs
    (:mod:`memvault.firewall_classifier`); reinstall memvault, or write the weights again with
    ``bench/firewall_training.py --write``.
    """


class EmbedderError(MemvaultError):
    """An embedder raised, or returned vectors of the wrong number, length or type.

    Nothing was written. The embedder's own error, if any, is the ``__cause__``.
    """


class StoreBusyError(MemvaultError):
    """Another process held the store's record file or vector index past the lock timeout."""


class StoreDamagedError(MemvaultError):
    """A store file cannot be read and could not be rebuilt; the message names the file."""


class StoreClosedError(MemvaultError):
    """The store (or its backend) was used after ``close()``; open a new one."""


class BackendUnavailableError(MemvaultError):
    """A backend service (a Chroma server) cannot be reached; the message names host and port."""


class BackendError(MemvaultError):
    """A backend service refused an operation; the message carries its reason."""


class StoreVersionError(BackendError):
    """The store was written by a newer memvault (a schema above this one's): upgrade memvault.

    The store is left as it is: nothing is migrated back, moved aside or rebuilt.
    """


class MemvaultWarning(UserWarning):
    """Something memvault repaired on its own, e.g. a damaged record file it rebuilt."""


class ImportFormatError(MemvaultError, ValueError):
    """An export or conversation file is malformed; nothing was written."""


class ExtractionError(MemvaultError):
    """An LLM reply could not be parsed into facts. ``raw`` holds the reply text."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


class ReconciliationError(ExtractionError):
    """An LLM reply could not be read as reconciliation decisions. ``raw`` holds the reply.

    A subclass of :class:`ExtractionError`: both are a model reply memvault cannot read.
    """


def validation_problem(error: Any, whole: str) -> str:
    """Name the first problem of a pydantic ``ValidationError`` as ``"field.path: message"``.

    In plain words rather than pydantic's: a missing field is ``"<field> is missing"``, and a
    field memvault's own check refused gets that check's message (which names the fix).

    Args:
        error: A ``pydantic.ValidationError``.
        whole: What to call the input when the problem is not in one field, e.g. ``"config"``.

    Returns:
        E.g. ``"k: Input should be greater than or equal to 1"`` or ``"created_at is
        missing"``.
    """
    first = error.errors()[0]
    where = ".".join(map(str, first["loc"])) or whole
    if first["type"] == "missing":
        return f"{where} is missing"
    refused = first.get("ctx", {}).get("error") if first["type"] == "value_error" else None
    return f"{where}: {refused or first['msg']}"


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 80
_SHOWN.maxlevel = 3


def shown(value: Any) -> str:
    """A short ``repr`` of a bad input for an error message, whatever the input.

    Strings are cut to about 80 characters and containers to 3 levels, so a 5,000-deep list or
    a 10 MB string make a short message; a value whose ``repr`` fails (an int of more than
    4,300 digits, a broken ``__repr__``) is named by its type.

    Args:
        value: Anything.

    Returns:
        E.g. ``"'users'"``, ``"[[[[...]]]]"`` or ``"<int>"``.
    """
    try:
        return _SHOWN.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
