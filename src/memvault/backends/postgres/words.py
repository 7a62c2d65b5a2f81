"""A record's words as Postgres keeps them (a ``tsvector``) and a query's (a ``tsquery``).

The words are memvault's own (:func:`~memvault.lexical.words_of` folded by
:func:`~memvault.lexical.fold`, :func:`~memvault.lexical.query_terms`), built in Python for
both sides, so that Postgres finds exactly the records the local backends find.
"""

from __future__ import annotations

from memvault.lexical import MAX_WORD, fold, query_terms, words_of

__all__ = ["tsquery_of", "tsvector_of"]

_MAX_POSITIONS = 256  # a tsvector keeps at most 256 positions per word


def _quoted(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_of(text: str) -> tuple[str, int]:
    """The ``tsvector`` literal of a text, each folded word with its positions (from 1).

    Args:
        text: The indexed text (:func:`~memvault.lexical.indexed_text`).

    Returns:
        The literal, e.g. ``"'dog':2 'tea':1,3"`` (empty for a text without words), and the
        text's length in words (BM25's document length).
    """
    positions: dict[str, list[int]] = {}
    words = words_of(text)
    for position, word in enumerate(words, start=1):
        folded = fold(word) if len(word) <= MAX_WORD else ""
        if folded:  # a word of combining marks alone folds to nothing
            kept = positions.setdefault(folded, [])
            if len(kept) < _MAX_POSITIONS:
                kept.append(min(position, 16_383))
    literal = " ".join(
        f"{_quoted(word)}:{','.join(map(str, sorted(set(at))))}" for word, at in positions.items()
    )
    return literal, len(words)


def tsquery_of(query: str) -> str | None:
    """The ``tsquery`` literal of a natural-language query: any of its words (OR).

    The words are :func:`~memvault.lexical.query_terms`, folded as :func:`tsvector_of` folds
    a record's; query syntax is taken literally.

    Returns:
        E.g. ``"'tea' | 'dog'"``, or ``None`` if the query has no words.
    """
    words = query_terms(query)
    if not words:
        return None
    return " | ".join(_quoted(w) for w in dict.fromkeys(words))
