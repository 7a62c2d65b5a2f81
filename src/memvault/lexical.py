"""What the lexical (BM25) index reads: the indexed text of a value, and the words of a query.

The record file (:mod:`memvault.records`) keeps an SQLite FTS5 index of each record's
:func:`indexed_text` and ranks a :func:`match_query` expression over it with Okapi BM25
(Robertson et al., TREC-3, 1994), on words lower-cased, accent-folded (``unicode61``) and
Porter-stemmed.
"""

from __future__ import annotations

import re
from typing import Any

STOPWORDS = frozenset(
    """a about after again all also am an and any are as at be been before being both but by
    can could did do does doing don down during each ever few for from had has have having he
    her here hers him his how i if in into is it its just me more most my no nor not now of off
    on once only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours""".split()  # noqa: SIM905
)
"""English function words dropped from queries (kept when a query has nothing else)."""

_WORD = re.compile(r"\w+")


def match_query(query: str) -> str | None:
    """An FTS5 ``MATCH`` expression for a natural-language query: any of its words (OR).

    Function words (:data:`STOPWORDS`) are left out unless nothing else is left; each word is
    quoted, so FTS5 syntax in the query (``AND``, ``*``, ``:``, quotes) is taken literally.

    Args:
        query: The user's query.

    Returns:
        The expression, or ``None`` if the query has no words.
    """
    kept = query_words(query)
    if not kept:
        return None
    return " OR ".join(f'"{w}"' for w in kept)


def query_words(query: str) -> list[str]:
    r"""The words a lexical query searches for: lower-cased, distinct, in query order.

    Function words (:data:`STOPWORDS`) are left out unless nothing else is left; any of the
    words matches (OR). Every backend's lexical search reads a query through this function.

    Args:
        query: The user's query.

    Returns:
        The words (``\w+`` runs), empty if the query has none.
    """
    words = [w.lower() for w in _WORD.findall(query)]
    kept = [w for w in words if w not in STOPWORDS] or words
    return list(dict.fromkeys(kept))


def words_of(text: str) -> list[str]:
    r"""The words of a text in order, as :func:`query_words` reads them (``\w+``, lower-cased).

    Args:
        text: E.g. :func:`indexed_text` of a value.
    """
    return [w.lower() for w in _WORD.findall(text)]


def indexed_text(value: dict[str, Any]) -> str:
    """The text the store embeds and indexes for a value.

    ``value["text"]``, followed on a new line by ``value["context"]`` when that is a non-empty
    string: words that help find the item without being part of what it says, such as the
    neighbouring turns of a conversation (see :mod:`memvault.conversations`).

    Args:
        value: A valid store value.

    Returns:
        The text to embed and index.
    """
    context = value.get("context")
    if isinstance(context, str) and context.strip():
        return f"{value['text']}\n{context}"
    return value["text"]
