"""What in a message is worth remembering, and when two memories say the same thing.

An agent's memory should hold what the user *told* it, not what the user *asked*. This module
is the one place for that policy:

- :func:`normalize_text` and :func:`memory_key`: two texts that differ only in case, white
  space, Unicode form or surrounding punctuation are the same memory and share a key, so saying
  a thing again updates one item instead of adding a copy.
- :func:`speech_act` sorts a sentence into ``"statement"``, ``"question"``, ``"request"`` (a
  task for the assistant: "Plan a weekend trip for me.") or ``"pleasantry"`` ("Thanks!"), and
  :func:`memorable_text` keeps the statements of a message. Only statements become memories;
  a message of questions, requests and pleasantries stores nothing. The rules are surface
  rules (punctuation, the first words), made for the short English turns of chat: with no LLM
  there is nothing better to read intent with, and with an LLM the
  :class:`~memvault.FactExtractor` decides instead.
- :func:`content_words` and :func:`states`: whether a memory states what a description
  describes ("that I am learning Portuguese" and "The user is learning Portuguese."), used by
  ``forget``. Words are stemmed with the Snowball English stemmer (Porter, 2001).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Literal

import snowballstemmer

SpeechAct = Literal["statement", "question", "request", "pleasantry"]


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_EDGE_PUNCTUATION = " \t\n.!?;:,\"'`()[]{}…"

_WH_WORDS = _wordset("what which who whom whose when where why how")
_AUXILIARIES = _wordset(
    """am is are was were do does did have has had can could will would shall should may
    might must isn't aren't wasn't weren't don't doesn't didn't haven't hasn't can't
    couldn't won't wouldn't shouldn't"""
)
_REQUEST_VERBS = _wordset(
    """plan tell give show help find suggest recommend write make list explain book create
    summarize summarise translate draft search look check compare describe calculate send
    order schedule remind generate answer continue repeat fix imagine pick choose propose
    outline organise organize prepare review rewrite forget"""
)
_PLEASANTRIES = _wordset(
    """hi hello hey yo thanks thank thx ty ok okay k great cool nice awesome perfect bye
    goodbye cheers sure yes yeah yep no nope wow lol haha hmm good fine alright right
    welcome morning evening night noted gotcha understood excellent amazing brilliant"""
)
_PLEASANTRY_FILLERS = _wordset(
    """you so much very a lot again that's thats sounds good great it got sir all for the"""
)
_REMEMBER_PREFIX = re.compile(
    r"^(please\s+)?(remember|note|keep in mind|don't forget|do not forget|bear in mind|fyi|"
    r"for the record|just so you know|by the way|btw)\b[\s,:-]*(that\s+)?",
    re.IGNORECASE,
)
_FORGET_PREFIX = re.compile(
    r"^(please\s+)?(forget|delete|remove|erase)\b\s*(the\s+)?(memory\s+|fact\s+)?"
    r"(that|about)?\s*",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")

_STOPWORDS = _wordset(
    """a an the and or but of to in on at for with from by as is am are be been being do does
    did i me my mine myself you your yours user users user's their they them it its this that
    these those there here so just really very also too please that's i'm i've i'd i'll it's
    he she his her him we our us would fyi btw honestly actually basically"""
)
_CANONICAL = {"has": "have", "were": "was", "cannot": "can"}
"""Word forms that say the same: "I have"/"the user has"; "cannot" also adds a "not"."""
_stemmer = snowballstemmer.stemmer("english")


def normalize_text(text: str) -> str:
    """The normal form two texts must share to be the same memory.

    NFKC, case-folded, white space collapsed to single spaces, and punctuation at either end
    removed: ``"I am allergic to kiwi."`` and ``"  i am ALLERGIC to kiwi"`` normalise alike.

    Args:
        text: Any text.

    Returns:
        The normal form (``""`` for text of only space and punctuation).
    """
    normal = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(normal.split()).strip(_EDGE_PUNCTUATION)


def memory_key(text: str) -> str:
    """The key of a memory: ``"mem-"`` plus 16 hex digits of the SHA-256 of its normal form.

    Texts with the same :func:`normalize_text` share a key, so writing one again updates the
    stored item in place.

    Args:
        text: The memory's text.

    Returns:
        A key such as ``"mem-3f2a9c0b1d4e5f60"``.
    """
    return "mem-" + hashlib.sha256(normalize_text(text).encode()).hexdigest()[:16]


def _words(text: str) -> list[str]:
    return [w.casefold().replace("’", "'") for w in _WORD.findall(text.replace("’", "'"))]


def speech_act(sentence: str) -> SpeechAct:
    """Classify one sentence by its surface form.

    - ``"question"``: ends with ``?``, or starts with a wh-word or an auxiliary verb
      ("which nuts should I avoid", "can you ...").
    - ``"request"``: starts with an imperative addressed to the assistant ("plan", "tell me",
      "let's", "please ...", "I need you to ...", "I want you to ...").
    - ``"pleasantry"``: made only of greeting, thanks and acknowledgement words ("Thanks a lot!",
      "OK great", "Good morning").
    - ``"statement"``: anything else ("I am allergic to kiwi.", "Remember that I am vegan.").

    Args:
        sentence: One sentence.

    Returns:
        The speech act.
    """
    words = _words(sentence)
    if not words:
        return "pleasantry"
    stripped = sentence.strip()
    if stripped.endswith("?"):
        return "question"
    if _REMEMBER_PREFIX.match(stripped):
        return "statement"
    first = words[0]
    if first in _WH_WORDS or first in _AUXILIARIES:
        return "question"
    if first in _REQUEST_VERBS or first in ("let's", "lets"):
        return "request"
    if first == "please" or " ".join(words[:4]) in ("i need you to", "i want you to"):
        return "request"
    if all(w in _PLEASANTRIES or w in _PLEASANTRY_FILLERS for w in words) and any(
        w in _PLEASANTRIES for w in words
    ):
        return "pleasantry"
    return "statement"


def sentences(text: str) -> list[str]:
    """Split text into sentences at ``.``, ``!``, ``?`` or ``…`` before a space, and at breaks.

    Args:
        text: Any text.

    Returns:
        The non-blank sentences, stripped, in order.
    """
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


def memorable_text(text: str) -> str | None:
    """The statements of a user message, the part worth remembering.

    Questions, requests and pleasantries are dropped; a leading "remember that", "note that",
    "by the way" and the like is removed from a statement ("Remember that I am vegan." keeps
    "I am vegan.").

    Args:
        text: A user message.

    Returns:
        The statements joined by single spaces, or ``None`` when the message has none.
    """
    kept = []
    for sentence in sentences(text):
        if speech_act(sentence) != "statement":
            continue
        sentence = _REMEMBER_PREFIX.sub("", sentence).strip()
        if normalize_text(sentence):
            kept.append(sentence[:1].upper() + sentence[1:])
    return " ".join(kept) or None


def description_of(request: str) -> str:
    """What a forget request describes, its "forget that" prefix dropped.

    ``"forget that I am learning Portuguese"`` gives ``"I am learning Portuguese"``; text
    without such a prefix is returned stripped.
    """
    return _FORGET_PREFIX.sub("", request.strip()).strip() or request.strip()


def content_sequence(text: str) -> tuple[str, ...]:
    """The stemmed content words of a text, in order: stop words, pronouns and "user" left out.

    First and third person meet here: "I am learning Portuguese" and "The user is learning
    Portuguese." both give ``("learn", "portugues")``. A negation is kept as ``"not"``
    ("I don't eat meat" and "I cannot eat meat" give ``("not", "eat", "meat")`` and
    ``("can", "not", "eat", "meat")``, as "I do not eat meat" gives the former); clitics such
    as ``'m``, ``'s`` and ``'ve`` are dropped; "has" counts as "have", "were" as "was".

    Args:
        text: Any text.

    Returns:
        The Snowball-stemmed words, in order.
    """
    words = []
    for word in _words(text):
        if word in _STOPWORDS:
            continue
        stem, _, clitic = word.partition("'")
        if clitic == "t" and stem.endswith("n"):  # don't, isn't, can't: a negation
            stem = {"ca": "can", "wo": "will", "sha": "shall"}.get(stem[:-1], stem[:-1])
            words.extend([stem, "not"] if stem not in _STOPWORDS else ["not"])
            continue
        if stem == "cannot":
            words.extend(["can", "not"])
            continue
        stem = _CANONICAL.get(stem, stem)
        if stem and stem not in _STOPWORDS:
            words.append(stem)
    return tuple(_stemmer.stemWords(words))


def content_words(text: str) -> frozenset[str]:
    """The set of :func:`content_sequence` (order and repeats dropped).

    Args:
        text: Any text.

    Returns:
        The set of stemmed content words.
    """
    return frozenset(content_sequence(text))


def states(description: str, text: str) -> bool:
    """Whether ``text`` states what ``description`` describes.

    It does when every content word of the description (:func:`content_words`) is in the
    text, and the description has at least one.

    Args:
        description: E.g. ``"I am learning Portuguese"``.
        text: A memory's text.

    Returns:
        ``True`` if the text contains the description's content words.
    """
    wanted = content_words(description)
    return bool(wanted) and wanted <= content_words(text)


NEAR_DUPLICATE_OVERLAP = 1.0
"""Default least Jaccard overlap of content words for :func:`same_fact` to merge by cosine:
all of them (the same set, in any order); every lower overlap lost precision on the labelled
pairs (``bench/similarity_threshold.py``)."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def same_fact(
    a: str,
    b: str,
    cosine: float | None,
    threshold: float,
    *,
    overlap: float = NEAR_DUPLICATE_OVERLAP,
) -> bool:
    """Whether two memories say the same thing, so a new one may overwrite the other.

    Never for a question ("Am I allergic to kiwi?" is no restatement of "I am allergic to
    kiwi."). Otherwise true when their content words (:func:`content_sequence`) are the same,
    in the same order ("I'm married." / "The user is married.", but not "I prefer tea to
    coffee." / "I prefer coffee to tea."), or when their cosine similarity is at least
    ``threshold``, at least ``overlap`` of their content words are shared (Jaccard) and they
    hold the same numbers. Cosine alone cannot decide: MiniLM gives "I had surgery on my left
    knee." / "... right knee." 0.99 and "I'm married." / "The user is married." 0.42.

    Measured with ``uv run python bench/similarity_threshold.py`` on 207 hand-labelled pairs
    (``bench/paraphrase_pairs.jsonl``: 103 paraphrases, 104 non-paraphrases, most of them hard
    negatives such as another date, person, side or a negation) with MiniLM: at threshold
    0.66 and overlap 1.0 (the defaults) precision 0.975, recall 0.379 (39 of 40 merges
    right); the words-in-order rule alone 1.000 / 0.320; cosine alone never above precision
    0.556. Chosen on half the pairs and scored on the other half: precision 0.950 and 0.905,
    recall 0.358 and 0.380. The rule is built for precision: a wrong merge silently
    overwrites a fact, while a missed one only leaves two items.

    Args:
        a: One text.
        b: The other.
        cosine: Their cosine similarity, or ``None`` if unknown.
        threshold: Least cosine similarity for the second rule, in ``[-1, 1]``.
        overlap: Least Jaccard overlap of content words for the second rule, in ``[0, 1]``.

    Returns:
        Whether to treat them as one memory.
    """
    if speech_act(a) == "question" or speech_act(b) == "question":
        return False
    words_a, words_b = content_sequence(a), content_sequence(b)
    if words_a and words_a == words_b:
        return True
    if cosine is None or cosine < threshold or not (words_a and words_b):
        return False
    set_a, set_b = set(words_a), set(words_b)
    shared = len(set_a & set_b) / len(set_a | set_b)
    numbers = set(_NUMBER.findall(a)) == set(_NUMBER.findall(b))
    return numbers and shared >= overlap
