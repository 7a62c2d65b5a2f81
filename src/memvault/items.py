"""What the store holds: values and :class:`MemoryItem`."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memvault.errors import InvalidValueError
from memvault.namespace import Namespace

ScoreType = Literal["cosine", "bm25", "rrf"]
"""What a search score is: see :attr:`MemoryItem.score_type`."""


class MemoryItem(BaseModel):
    """One stored memory, as the store returns it.

    Times are Unix timestamps in seconds (UTC), as :func:`time.time` gives them.

    Attributes:
        namespace: Where the item lives, e.g. ``("users", "alice")``.
        key: Its key, unique within the namespace.
        value: The stored dict; ``value["text"]`` is the embedded part, the rest is metadata.
        created_at: When the key was first written (kept when the item is overwritten).
        updated_at: When the item was last written.
        expires_at: When the item expires, or ``None`` if it never does.
        score: Relevance when the item came from a search with a query, ``None`` otherwise;
            ``score_type`` says what it is.
        score_type: ``"cosine"`` (cosine similarity of embeddings, in ``[-1, 1]``, dense
            search), ``"bm25"`` (Okapi BM25 as SQLite FTS5 computes it, ``> 0``, lexical search)
            or ``"rrf"`` (reciprocal rank fusion score ``sum(weight / (RRF_K + rank))``, hybrid
            search; see :data:`memvault.store.RRF_K`); ``None`` without a score.
    """

    model_config = ConfigDict(frozen=True)

    namespace: Namespace = Field(description="Namespace tuple, e.g. ('users', 'alice').")
    key: str = Field(description="Key, unique within the namespace.")
    value: dict[str, Any] = Field(description="Stored value; 'text' is the embedded part.")
    created_at: float = Field(description="First write, Unix seconds (UTC).")
    updated_at: float = Field(description="Last write, Unix seconds (UTC).")
    expires_at: float | None = Field(default=None, description="Expiry, Unix seconds (UTC).")
    score: float | None = Field(default=None, description="Search relevance, if searched.")
    score_type: ScoreType | None = Field(
        default=None, description="What score is: 'cosine', 'bm25' or 'rrf'."
    )

    @property
    def text(self) -> str:
        """The embedded text, ``value["text"]``."""
        return self.value["text"]


def validate_value(value: Any) -> dict[str, Any]:
    """Check that a value can be stored and will round-trip exactly.

    Args:
        value: A dict with a non-empty ``"text"`` string; every other entry JSON-serialisable
            (str, int, float, bool, None, lists and dicts with string keys).

    Returns:
        The value, unchanged.

    Raises:
        InvalidValueError: If it is not a dict, lacks a non-empty ``text``, or holds something
            JSON cannot round-trip (a tuple, a set, a non-string dict key, NaN, an object).
    """
    if not isinstance(value, dict):
        raise InvalidValueError(
            "value must be a dict such as {'text': 'Alice likes tea'}, got "
            f"{type(value).__name__}"
        )
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InvalidValueError(
            f"value['text'] must be a non-empty string (it is what gets embedded), got {text!r}"
        )
    try:
        encoded = json.dumps(value, allow_nan=False, ensure_ascii=False)
        encoded.encode("utf-8")  # a lone surrogate cannot be stored
        round_tripped = json.loads(encoded)
    except (TypeError, ValueError) as error:
        raise InvalidValueError(
            f"value must be JSON-serialisable to be stored: {error}; "
            "use str, int, float, bool, None, lists and dicts with string keys"
        ) from None
    if round_tripped != value or not _same_types(round_tripped, value):
        raise InvalidValueError(
            "value would not round-trip through JSON (tuples, non-string dict keys and the like "
            "change type); use lists and string keys"
        )
    return value


def _same_types(a: Any, b: Any) -> bool:
    """Whether two equal JSON-like structures also agree on types (1 vs 1.0 vs True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True
