r"""The words of a text as memvault reads them: one analyser, set up for search and for keys.

An :class:`Analyser` cuts a text into words (:meth:`Analyser.words`: a pattern, case folded,
``’`` read as ``'``), folds a word to what a match compares (:meth:`Analyser.fold`: accents
removed if it is told, a Snowball stemmer) and names its function words
(:attr:`Analyser.stopwords`). Every word memvault matches, ranks or hashes comes from one of
the two analysers here:

- :data:`SEARCH_ANALYSER`, BM25's words (:mod:`memvault.lexical`): ``\w+`` runs,
  lower-cased, accent-folded, Porter-stemmed (``"ponies"`` is ``"poni"``); its function
  words are left out of a query.
- :data:`STATEMENT_ANALYSER`, the words of what a memory says (:mod:`memvault.statements`:
  memory keys, near duplicates, forget's matching): words with their clitic (``"don't"``,
  ``"user's"``, so a negation can be read), case-folded, Snowball-English-stemmed, a final
  ``i`` of a stem over four letters dropped (``"allergi"``, ``"allerg"``); its function
  words, pronouns and ``"user"`` among them, are left out of what a text says.

They are two set-ups of one analyser and not one because each is a **stored format**:
the record file's FTS5 table and term counts and Postgres's ``tsvector`` hold the search
words of every record, and a memory's key (:func:`memvault.statements.memory_key`) is a
hash of its statement words. Changing either re-indexes every store or keys every memory
anew, and a fact said again after a key change is stored a second time. Measured on the
five LoCoMo conversations of ``bench/locomo.py`` (turns, their sentences, the questions) and
on the texts of the tests, the bench's labelled pairs and the scenarios:

- Porter for statements: the keys of 2,179 of 8,876 LoCoMo sentences change (1,512 of
  2,760 turns, 306 of 999 questions; 478 of 2,433 test and bench texts): 177 of the turns'
  4,045 distinct words (their clitic cut) stem otherwise (``"hey"`` is Porter's ``"hei"``).
- Snowball English for search: 177 of the turns' 4,052 distinct ``\w+`` words fold
  otherwise, and the words that match each other fall into 2,841 classes instead of 2,848
  (117 classes are in one partition only), so BM25's ranking moves (``bench/README.md``:
  +0.001 at recall@1 and @10, noise) and every stored record's words with it.
- One way of cutting words: 1,851 of the 2,760 turns are cut otherwise (``"I'm"`` is one
  statement word and the two search words ``"i"``, ``"m"``).
- One stop-word list: the two are different words for different uses. A query drops its
  function words (``"not"`` among them) only to match a record that holds the rest; a key
  drops only the words that do not change what is said (``"not"`` changes it; ``"user"``,
  the pronouns and discourse markers such as ``"btw"`` do not).

What the two share is the analyser itself: the apostrophe, the case folding applied the
same way on both sides of a match, ASCII numbers kept as they are, the stemmers, a word
a stemmer reduces to nothing kept whole, and the cache of folded words.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

import snowballstemmer

FOLD_CACHE = 2**16
"""How many folded words each analyser remembers: stemming in Python costs about 70
microseconds a word, and a store folds every word it indexes and every query's."""


class Analyser:
    """How a text becomes the words memvault compares: cut, case-folded, accent-folded, stemmed.

    Args:
        pattern: A word, as a regular expression over the text (``’`` replaced by ``'``).
        case: How case is folded, ``str.lower`` or ``str.casefold``.
        accents: Whether :meth:`fold` removes accents (NFKD, combining marks dropped).
        stemmer: A Snowball algorithm of the ``snowballstemmer`` package, e.g. ``"porter"``.
        stopwords: The function words of this analysis, white-space separated, folded in
            case as :meth:`words` folds them; what they are left out of is the user's to say.
        drop_final_i: Whether :meth:`fold` drops a final ``"i"`` from a stem longer than four
            letters (Snowball English keeps ``"allergi"`` apart from ``"allerg"``).
    """

    def __init__(
        self,
        *,
        pattern: str,
        case: Callable[[str], str],
        accents: bool,
        stemmer: str,
        stopwords: str,
        drop_final_i: bool = False,
    ) -> None:
        self._pattern = re.compile(pattern)
        self._case = case
        self._accents = accents
        self._stemmer = snowballstemmer.stemmer(stemmer)
        self._drop_final_i = drop_final_i
        self.stopwords = frozenset(stopwords.split())
        """The function words of this analysis (folded in case, not stemmed)."""
        self._folded = functools.lru_cache(maxsize=FOLD_CACHE)(self._fold)

    def words(self, text: str) -> list[str]:
        """The words of a text in order, case-folded (not stemmed).

        Args:
            text: Any text.

        Returns:
            The matches of the analyser's pattern, ``’`` read as ``'``; empty if none.
        """
        return [self._case(word) for word in self._pattern.findall(text.replace("’", "'"))]

    def fold(self, word: str) -> str:
        """A word as both sides of a match read it: case-folded, accents removed if told, stemmed.

        A number of ASCII digits is kept as it is, and a word the stemmer reduces to nothing
        (Porter's ``"s"``) is kept whole. The last :data:`FOLD_CACHE` words are remembered.

        Args:
            word: One word, e.g. of :meth:`words`.

        Returns:
            The folded word; ``""`` for a word of combining marks alone when accents go.

        Example:
            >>> SEARCH_ANALYSER.fold("Café"), SEARCH_ANALYSER.fold("ponies")
            ('cafe', 'poni')
            >>> STATEMENT_ANALYSER.fold("allergy"), STATEMENT_ANALYSER.fold("ponies")
            ('allerg', 'poni')
        """
        return self._folded(word)

    def _fold(self, word: str) -> str:
        if word.isascii() and word.isdigit():
            return word
        plain = self._case(word)
        if self._accents:
            plain = unicodedata.normalize("NFKD", plain)
            plain = "".join(c for c in plain if not unicodedata.combining(c))
        stem = str(self._stemmer.stemWord(plain)) or plain
        if self._drop_final_i and len(stem) > 4 and stem.endswith("i"):
            return stem[:-1]
        return stem


SEARCH_ANALYSER = Analyser(
    pattern=r"\w+",
    case=str.lower,
    accents=True,
    stemmer="porter",
    stopwords="""a about after again all also am an and any are as at be been before being both
    but by can could did do does doing don down during each ever few for from had has have
    having he her here hers him his how i if in into is it its just me more most my no nor not
    now of off on once only or other our ours out over own same she should so some such than
    that the their theirs them then there these they this those through to too under until up
    very was we were what when where which while who whom whose why will with would you your
    yours""",
)
"""BM25's words (:mod:`memvault.lexical`); its stop words are English function words, left
out of a query unless it has nothing else."""

STATEMENT_ANALYSER = Analyser(
    pattern=r"[^\W_]+(?:'[^\W_]+)?",
    case=str.casefold,
    accents=False,
    stemmer="english",
    stopwords="""a an the and or but of to in on at for with from by as is am are be been being
    do does did i me my mine myself you your yours user users user's their they them it its
    this that these those there here so just really very also too please that's i'm i've i'd
    i'll it's he she his her him we our us would fyi btw honestly actually basically""",
    drop_final_i=True,
)
"""The words of what a memory says (:mod:`memvault.statements`); its stop words are those
that do not change it: articles, pronouns, ``"user"``, fillers; never ``"not"``."""
