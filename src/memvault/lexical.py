"""Lexical (BM25) search, one definition for every backend: words of texts and queries, scores.

A record's words are those of its :func:`indexed_text`, each lower-cased, accent-folded and
Porter-stemmed (:func:`fold`); :func:`terms_of` counts them. A query searches for any of its
:func:`query_terms` (OR). Scores are Okapi BM25 (Robertson et al., TREC-3, 1994; :func:`bm25`)
with the statistics of the **scope searched** (the records under the namespace prefix), so one
user's ranking depends on that user's memories only, and so does its cost. The record file
(:mod:`memvault.backends.sqlite`, SQLite FTS5 finds the records) and
:class:`~memvault.backends.postgres.PostgresBackend` (a GIN index finds them, SQL scores them)
both rank this way.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from typing import Any

import numpy as np
import snowballstemmer

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

BM25_K1 = 2.5
"""BM25's term-frequency saturation, out of 0.8 to 3.0, chosen with :data:`BM25_B` and the
fusion's constants on the LoCoMo conversations by ``bench/ranking_choice.py`` (its figures are
in ``bench/README.md``). Lucene and FTS5 use 1.2."""

BM25_B = 0.1
"""BM25's length normalisation: little, since a memory's length says more about the context
stored with it than about its topic. Out of 0 to 0.75, chosen with :data:`BM25_K1`. Lucene
and FTS5 use 0.75."""

MAX_WORD = 500
"""Longer "words" (in characters) are not indexed: a Postgres ``tsvector`` word holds at most
2,047 bytes, and such a string is no word anyone searches for."""

_STEMMER = snowballstemmer.stemmer("porter")


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


@functools.lru_cache(maxsize=2**16)
def fold(word: str) -> str:
    """A word as both sides of a lexical match read it: lower-cased, accents removed, stemmed.

    The stemmer is Porter's (Porter, 1980; the ``snowballstemmer`` package's ``"porter"``).
    A word the stemmer reduces to nothing (``"s"``) and a number of ASCII digits are kept as
    they are. The last 65,536 words folded are remembered: stemming in Python costs about 70
    microseconds a word.

    Example:
        >>> fold("Café"), fold("Running"), fold("ponies")
        ('cafe', 'run', 'poni')
    """
    if word.isascii() and word.isdigit():
        return word
    plain = unicodedata.normalize("NFKD", word.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return str(_STEMMER.stemWord(plain)) or plain


def terms_of(text: str) -> tuple[Counter[str], int]:
    r"""The folded words of a text with their counts, and the text's length in words.

    Args:
        text: E.g. :func:`indexed_text` of a value.

    Returns:
        ``(counts, length)``: how often each folded word (:func:`fold`) occurs, leaving out
        words over :data:`MAX_WORD` characters and words that fold to nothing; and the number
        of words (``\w+`` runs) of the text, BM25's document length.
    """
    words = words_of(text)
    counts: Counter[str] = Counter()
    for word in words:
        folded = fold(word) if len(word) <= MAX_WORD else ""
        if folded:  # a word of combining marks alone folds to nothing
            counts[folded] += 1
    return counts, len(words)


def query_terms(query: str) -> list[str]:
    """The folded words a lexical query searches for (any of them matches), distinct, in order.

    Args:
        query: The user's query.

    Returns:
        :func:`fold` of each of :func:`query_words` (function words left out unless the query
        has nothing else), empty if the query has no words.
    """
    folded = (fold(w) for w in query_words(query) if len(w) <= MAX_WORD)
    return list(dict.fromkeys(w for w in folded if w))


def bm25(
    frequencies: np.ndarray,
    lengths: np.ndarray,
    *,
    documents: int,
    mean_length: float,
    k1: float = BM25_K1,
    b: float = BM25_B,
) -> np.ndarray:
    """Okapi BM25 scores of the records that hold a query term (Robertson et al., TREC-3, 1994).

    ``score = sum over terms of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / mean))``
    with ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))`` (``k1`` :data:`BM25_K1` and ``b``
    :data:`BM25_B` unless told, the values every backend ranks with): the
    form of Lucene's ``BM25Similarity``, whose idf stays positive when a word is in half of a
    small scope's records or more (the idf of Robertson et al., which FTS5's ``bm25()`` uses,
    falls to zero there: "tea" would not count among one user's four memories if two held it).
    The document frequency ``df`` of a term is the number of rows of ``frequencies`` holding it,
    so the rows must be every record of the scope that holds any query term.

    Args:
        frequencies: How often each query term occurs in each record, shape
            ``(records, terms)``.
        lengths: Each record's length in words, shape ``(records,)``.
        documents: ``N``, how many records the scope holds (``>= records``).
        mean_length: Their mean length in words (a value below 1 counts as 1).
        k1: Term-frequency saturation, ``> 0``.
        b: Length normalisation, in ``[0, 1]``.

    Returns:
        The scores, shape ``(records,)``; ``> 0`` for a record holding a query term.
    """
    frequencies = np.asarray(frequencies, dtype=np.float64)
    held = (frequencies > 0).sum(axis=0)
    idf = np.log1p((documents - held + 0.5) / (held + 0.5))
    norm = k1 * (1 - b + b * np.asarray(lengths, np.float64) / max(mean_length, 1))
    return (idf * frequencies * (k1 + 1) / (frequencies + norm[:, None])).sum(axis=1)
