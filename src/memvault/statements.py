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
    """a an the and or but of to in on at for with from by as is am are was were be been
    being do does did have has had i me my mine myself you your yours user users user's
    their they them it its this that these those there here so just really very also too
    please that's i'm i've i'd i'll it's he she his her him we our us"""
)
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


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of a text: stop words, pronouns and "user" left out.

    First and third person meet here: "I am learning Portuguese" and "The user is learning
    Portuguese." both give ``{"learn", "portugues"}``. A negation is kept as ``"not"``
    ("I don't eat meat" gives ``{"not", "eat", "meat"}``, as "I do not eat meat" does), and
    clitics such as ``'m``, ``'s`` and ``'ve`` are dropped.

    Args:
        text: Any text.

    Returns:
        The set of Snowball-stemmed words.
    """
    words = []
    for word in _words(text):
        if word in _STOPWORDS:
            continue
        stem, _, clitic = word.partition("'")
        if clitic == "t" and stem.endswith("n"):  # don't, isn't, can't: a negation
            words.append("not")
            stem = {"ca": "can", "wo": "will", "sha": "shall"}.get(stem[:-1], stem[:-1])
        if stem and stem not in _STOPWORDS:
            words.append(stem)
    return frozenset(_stemmer.stemWords(words))


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


NEAR_DUPLICATE_OVERLAP = 0.6
"""Least Jaccard overlap of content words for :func:`same_fact` to merge by cosine."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def same_fact(a: str, b: str, cosine: float | None, threshold: float) -> bool:
    """Whether two memories say the same thing, so a new one may overwrite the other.

    True when their content words (:func:`content_words`) are the same set ("I'm married." /
    "The user is married."), or when their cosine similarity is at least ``threshold``, they
    share at least :data:`NEAR_DUPLICATE_OVERLAP` of their content words (Jaccard), and they
    hold the same numbers. Cosine alone cannot decide: MiniLM gives "I had surgery on my left
    knee." / "... right knee." 0.99 and "I'm married." / "The user is married." 0.42.

    Args:
        a: One text.
        b: The other.
        cosine: Their cosine similarity, or ``None`` if unknown.
        threshold: Least cosine similarity for the second rule.

    Returns:
        Whether to treat them as one memory.
    """
    words_a, words_b = content_words(a), content_words(b)
    if words_a and words_a == words_b:
        return True
    if cosine is None or cosine < threshold or not (words_a and words_b):
        return False
    overlap = len(words_a & words_b) / len(words_a | words_b)
    numbers = set(_NUMBER.findall(a)) == set(_NUMBER.findall(b))
    return numbers and overlap >= NEAR_DUPLICATE_OVERLAP
