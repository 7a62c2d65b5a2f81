"""What the record file keeps of a record's words, and how a search reads them back.

Each record has its words for BM25 (:func:`memvault.lexical.terms_of` over
:func:`memvault.lexical.indexed_text`: folded words with their counts) twice: in its ``items``
row, packed as 64-bit word digests and 32-bit counts (:data:`TERM`) with its length in words,
so that a search reads the counts of its found records in one numpy pass
(:func:`frequencies`); and in the FTS5 ``docs`` table, as its distinct words (``body``) and one
word per prefix of its namespace (``scope``), which only finds the records of a scope holding a
query word.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from memvault.lexical import indexed_text, terms_of
from memvault.model import Namespace, ns_key

TERM = np.dtype([("term", "<u8"), ("count", "<u4")])
"""One entry of a record's ``terms`` column: a folded word's 64-bit digest and its count."""


@functools.lru_cache(maxsize=2**16)
def digest(term: str) -> int:
    """A folded word as an unsigned 64-bit integer (BLAKE2b; a collision is a 2**-64 event).

    Args:
        term: One folded word (:func:`memvault.lexical.fold`).

    Returns:
        The digest, ``0 <= digest < 2**64``.
    """
    return int.from_bytes(hashlib.blake2b(term.encode(), digest_size=8).digest(), "little")


def stored_words(value: dict[str, Any]) -> tuple[int, bytes, str]:
    """What the file keeps of a value's indexed text (``text``, plus ``context``).

    Args:
        value: A record's value.

    Returns:
        Its BM25 length in words, its ``terms`` column (:data:`TERM` entries) and its FTS5
        ``body`` (its distinct words, space-separated).
    """
    counts, length = terms_of(indexed_text(value))
    packed = np.array([(digest(t), n) for t, n in counts.items()], dtype=TERM).tobytes()
    return length, packed, " ".join(counts)


def scope_token(prefix: Namespace) -> str:
    """One word naming a namespace prefix: ``ns`` and a BLAKE2b digest of its key.

    Each record's ``scope`` column holds the word of every prefix of its namespace, so a search
    asks FTS5 for the prefix and the query words at once and ranks only the records in scope.

    Args:
        prefix: A non-empty namespace prefix.

    Returns:
        ``ns`` and 20 hexadecimal digits.
    """
    hashed = hashlib.blake2b(ns_key(prefix).encode(), digest_size=10).hexdigest()
    return f"ns{hashed}"


def scope_of(namespace: Namespace) -> str:
    """A record's FTS5 ``scope``: the :func:`scope_token` of each prefix of its namespace.

    Args:
        namespace: The record's namespace.

    Returns:
        The words, space-separated, shortest prefix first.
    """
    return " ".join(scope_token(namespace[:depth]) for depth in range(1, len(namespace) + 1))


def frequencies(columns: Sequence[bytes], terms: Sequence[str]) -> np.ndarray:
    """How often each of ``terms`` occurs in each record, from the records' ``terms`` columns.

    Args:
        columns: The ``terms`` column of each record (:func:`stored_words`).
        terms: Distinct folded query words, at least one.

    Returns:
        Counts, shape ``(len(columns), len(terms))``.
    """
    entries = np.frombuffer(b"".join(columns), dtype=TERM)
    sizes = [len(column) // TERM.itemsize for column in columns]
    rows = np.repeat(np.arange(len(columns)), sizes)
    wanted = np.array([digest(t) for t in terms], dtype=np.uint64)
    order = np.argsort(wanted)
    at = np.minimum(np.searchsorted(wanted[order], entries["term"]), len(terms) - 1)
    hit = wanted[order][at] == entries["term"]
    counts = np.zeros((len(columns), len(terms)))
    counts[rows[hit], order[at[hit]]] = entries["count"][hit]
    return counts
