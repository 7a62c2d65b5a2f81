"""What in a message is worth remembering, and when two memories say the same thing.

An agent's memory should hold what the user *told* it, not what the user *asked*. This module
is the one place for that policy:

- :func:`normalize_text` and :func:`memory_key`: two texts that differ only in case, white
  space, Unicode form or surrounding punctuation are the same memory and share a key, so saying
  a thing again updates one item instead of adding a copy.
- :func:`speech_act` sorts a sentence into ``"statement"``, ``"question"``, ``"request"`` (a
  task for the assistant: "Plan a weekend trip for me.") or ``"pleasantry"`` ("Thanks!"), and
  :func:`memorable_text` keeps the statements of a message. Only statements become memories;
  a message of questions, requests and pleasantries stores nothing. A request to remember
  stores its fact ("Can you remember that my birthday is on May 5?" keeps "My birthday is on
  May 5."), a tag question nothing ("I'm allergic to peanuts, right?"). The rules are surface
  rules (punctuation, the first words), made for the short English turns of chat: with no LLM
  there is nothing better to read intent with, and with an LLM the
  :class:`~memvault.FactExtractor` decides instead. How they read hand-labelled requests to
  remember and questions, and what a change of them does to LoCoMo's turns, is measured by
  ``bench/remember_requests.py`` (``bench/README.md``).
- :func:`content_words` and :func:`states`: whether a memory states what a description
  describes ("that I am learning Portuguese" and "The user is learning Portuguese."), used by
  ``forget``. Words are cut, folded and stemmed (Snowball English, Porter, 2001) by
  :data:`memvault.words.STATEMENT_ANALYSER`, whose words are a stored format: keys hash them.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from typing import Literal

from memvault.words import STATEMENT_ANALYSER

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
_QUESTION_OPENERS = ("any ", "anything ", "i wonder", "wondering ", "how about", "what about")
_REQUEST_VERBS = _wordset(
    """plan tell give show help find suggest recommend write make list explain book create
    summarize summarise translate draft search look check compare describe calculate send
    order schedule remind generate answer continue repeat fix imagine pick choose propose
    outline organise organize prepare review rewrite forget delete remove erase clear drop
    cancel undo stop update change edit set add save store record note"""
)
_REQUEST_OPENERS = re.compile(
    r"^(i need you to|i want you to|i'd like you to|i would like you to|i'd like to know|"
    r"i want to know|i'm looking for|i am looking for|you can|you could|you should|you may|"
    r"you might|(i'd like|i would like|i'd love|i need|i want) (a|an|some|help|more|another|"
    r"ideas?|advice|tips?|suggestions?|recommendations?)\b)"
)
_PLEASANTRIES = _wordset(
    """hi hello hey yo thanks thank thx ty ok okay k great cool nice awesome perfect bye
    goodbye cheers sure yes yeah yep no nope wow lol haha hmm good fine alright right
    welcome morning evening night noted gotcha understood excellent amazing brilliant please
    love lovely sounds idea helps helpful ahead agreed true indeed exactly interesting fun
    sweet fantastic wonderful super absolutely definitely maybe oh ah uh um glad"""
)
_PLEASANTRY_FILLERS = _wordset(
    """you so much very a lot again that's thats sounds good great it got sir all for the
    that this is was be will go not one me to do it's really just too what an idea
    remembering noting"""
)
_DISCOURSE = re.compile(
    r"(^|[\s,;:(-])(by the way|just so you know|for the record|for future reference|heads up|"
    r"fyi|btw|actually|honestly|basically|anyway)(?=$|[\s,;:.!)-])",
    re.IGNORECASE,
)
"""Discourse markers that say nothing about the user, anywhere in a sentence."""
_LEADING_FILLERS = re.compile(r"^((oh|well|ok|okay|so|also|and|but|hey|um|uh)\b[\s,]*)+", re.I)
_LATER = r"\s+(?:for\s+(?:later|next\s+time|the\s+future)|going\s+forward)"
_OBJECT = rf"(?:this|that|it|the\s+following)(?=(?:{_LATER})?\s*(?:[:,\u2013\u2014-]|[.!?…]*$))"
"""What a request to remember may name before its fact: "save *this*: ...", "remember *this*!"."""
_REMEMBER_REQUEST = re.compile(
    rf"""
    ^(?:(?:please|pls|plz|kindly|just|so|also)\s+)*
    (?P<asking>(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:please|pls|plz|also|just)\s+)?)?
    (?P<wanting>(?:i\s+(?:want|need)|i'd\s+like|i\s+would\s+like)\s+you\s+to\s+
        |make\s+sure\s+(?:you\s+|to\s+)?|try\s+to\s+|you\s+(?:should|need\s+to)\s+)?
    (?:
        (?P<plain>
            (?:remember|memori[sz]e|(?:don'?t|do\s+not|never)\s+forget)(?:\s+{_OBJECT})?
            |(?:keep|bear)(?:\s+(?:this|that|it))?\s+in\s+mind
            |(?:make|take|keep)\s+a\s+(?:mental\s+)?note(?:\s+of\s+{_OBJECT}|(?!\s+of\b))
            |take\s+note(?:\s+of\s+{_OBJECT}|(?!\s+of\b))
            |commit\s+(?:this|that|it)\s+to\s+memory
            |update\s+your\s+memory
            |(?:add|save|store|put|keep|write)(?:\s+(?:this|that|it))?\s+(?:to|in|into)
                \s+(?:your\s+)?memory
            |know
        )
        |(?P<noting>note\s+to\s+self|note(?:\s+down)?|(?:a\s+)?(?:mental|quick)\s+note
            |(?:a\s+)?(?:quick\s+|friendly\s+)?reminder)
        |(?P<storing>(?:save|store|record|log|write\s+down|jot\s+down)(?:\s+{_OBJECT})?
            |(?:write|jot|note)\s+(?:this|that|it)\s+down)
    )
    (?:{_LATER})?
    (?P<separator>\s*[:\u2013\u2014-]+\s*|\s*,\s*|\s+that\s+|\s+|(?=[^\w']|$))
    """,
    re.IGNORECASE | re.VERBOSE,
)
"""The opening of a request to remember (see :func:`speech_act`); what follows it is the fact."""
_KEEP = r"(?:remember|know|store|save|keep|note|write\s+down|memori[sz]e)"
_NOT_TO_KEEP = re.compile(
    rf"^(?:(?:please\s+)?(?:do\s+not|don'?t|never)\s+{_KEEP}"
    rf"|i\s+(?:do\s+not|don'?t)\s+(?:want|need)\s+you\s+to\s+{_KEEP}"
    rf"|i'?d\s+(?:rather|prefer)\s+(?:you\s+)?(?:didn'?t|did\s+not|not)\s+{_KEEP}"
    rf"|you\s+(?:do\s+not|don'?t)\s+(?:need|have)\s+to\s+{_KEEP}"
    rf"|(?:there'?s\s+)?no\s+need\s+to\s+{_KEEP}"
    r"|(?:this\s+is\s+|strictly\s+|just\s+)?off\s+the\s+record)\b",
    re.IGNORECASE,
)
"""A request not to keep what follows ("I don't want you to remember that my PIN is 9876",
"Off the record, ..."): the sentence is a request and stores nothing. An imperative only: "I
don't remember my PIN" says something of the user."""
_MARKED = re.compile(r"[:,\u2013\u2014-]")
_REQUEST_OBJECTS = _wordset("this that it")
_CLAUSE_WORDS = (_AUXILIARIES - {"may"}) | _wordset(
    "i i'm i've i'd i'll we we're we've we'd we'll he she they he's she's it's they're there's"
)
"""Words that make a text a clause, not a noun phrase: subject pronouns and auxiliary verbs
("may" left out: it is also the month)."""
_TRAILING_PLEASE = re.compile(r"[\s,]+(?:please|pls|plz)(?=[\s.!?…]*$)", re.IGNORECASE)
_TAG = re.compile(
    r"^(?:(?:(?:is|isn't|am|are|aren't)\s+(?:that|i|it)\s+)?"
    r"(?:right|correct|true|yes|yeah|yep|no|ok|okay|eh|huh|innit)|or\s+not"
    r"|(?P<auxiliary>[a-z']+)\s+(?:not\s+)?(?P<subject>i|it|we|they|he|she|that|there|you))$"
)
"""A question tag, the clause after a sentence's last comma: "right", "isn't it", "don't I",
"am I right", "is that correct", "or not"."""
_NEGATIVE_TAG = re.compile(r"(?P<auxiliary>\w+n't)\s+(?P<subject>i|it|we|they|he|she|that|you)$")
"""A tag with no comma before it, at the end of a sentence ("my birthday is may 5 isn't it")."""
_FORGET_PREFIX = re.compile(
    r"^((please|you can|you could|can you|could you)\s+)?((forget|delete|remove|erase)\b\s*)?"
    r"((the|my)\s+)?((memory|memories|fact|facts|note|notes)\s+)?(the fact\s+)?"
    r"(that|about)?\s*",
    re.IGNORECASE,
)
_OTHERS = _wordset(
    """sister brother mother mom mum father dad wife husband partner son daughter friend boss
    colleague coworker kid kids child children parent parents girlfriend boyfriend cousin aunt
    uncle grandma grandpa grandmother grandfather neighbor neighbour roommate manager mentor
    team family dog cat pet teacher doctor ex fiance fiancee"""
)
"""People and pets: a memory about one of them does not state what the user said of
themselves ("My sister lives in Porto." is not "I live in Porto.")."""
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")
_CANONICAL = {"has": "have", "were": "was", "cannot": "can"}
"""Word forms that say the same: "I have"/"the user has"; "cannot" also adds a "not"."""
_FIRST_PERSON = _wordset("i i'm i've i'd i'll me my mine myself we we're we've our ours us")
_OTHER_STEMS = frozenset(STATEMENT_ANALYSER.fold(word) for word in _OTHERS)


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


KEY_CACHE = 8192
"""How many texts' keys :func:`memory_key` keeps (a pure function of the text)."""


@functools.lru_cache(maxsize=KEY_CACHE)
def memory_key(text: str) -> str:
    """The key of a memory: ``"mem-"`` plus 16 hex digits of the SHA-256 of what it says.

    What a text says is its content words in order (:func:`content_sequence`), so texts that
    differ only in case, white space, punctuation, contractions, stop words or first versus
    third person share a key ("I'm married." and "The user is married."; not "I have a cat."
    and "I had a cat.", nor "I prefer tea to coffee." and "I prefer coffee to tea."), and
    writing one again updates the stored item in place. A question keys apart from the
    statement it asks about; a text without content words keys by :func:`normalize_text`.
    How often equal keys are the same fact, and how many paraphrases they find, is measured
    on hand-labelled pairs by ``bench/similarity_threshold.py`` (``bench/README.md``). The
    last :data:`KEY_CACHE` keys are cached: recall keys every memory it considers, and
    stemming is the costly part.

    Args:
        text: The memory's text.

    Returns:
        A key such as ``"mem-3f2a9c0b1d4e5f60"``.
    """
    said = " ".join(content_sequence(text)) or normalize_text(text)
    if speech_act(text) == "question":
        said = f"? {said}"
    return "mem-" + hashlib.sha256(said.encode()).hexdigest()[:16]


def speech_act(sentence: str) -> SpeechAct:
    """Classify one sentence by its surface form.

    Discourse markers ("actually", "by the way", "FYI") and leading fillers ("oh", "well",
    "so") are read past first.

    - ``"statement"`` when the sentence asks the assistant to remember a statement: it opens
      with a request to remember ("remember", "don't forget", "keep in mind", "make a note",
      "note to self", "take note", "reminder", "commit to memory"; "please", "can you", "I
      want you to", "make sure you" before them; "note", "save", "store", "write down" need a
      colon, a dash or "that" after them, "save this: ...") and what follows is a statement.
      Asked as a question ("can you remember ...?"), what follows must be a clause (a pronoun
      subject or a verb such as "is": "can you remember my birthday is May 5?", not "can you
      remember my birthday?"). A request to remember with no fact ("Remember that!") or a
      task ("remember to call mum") is a ``"request"``; one of a question ("remember when
      we met?") a ``"question"``.
    - ``"request"`` when it asks the assistant not to keep what follows ("I don't want you
      to remember that ...", "you don't need to remember ...", "don't save this: ...", "off
      the record, ..."): nothing of it is stored.
    - ``"question"``: ends with ``?``; or is a tag question ("I'm allergic to peanuts,
      right", "my birthday is May 5 isn't it": a tag such as "right", "correct", "am I right"
      or an auxiliary and a pronoun, "isn't it", "don't I", after the last comma, or a
      negative one ending the sentence); or starts with a wh-word, an auxiliary verb, "any",
      "I wonder" and the like ("which nuts should I avoid", "can you ...", "any tips for
      sleeping better").
    - ``"request"``: starts with an imperative addressed to the assistant ("plan", "tell me",
      "delete", "let's", "please ...", "you can ..."), or asks for something ("I need a
      recipe", "I'd like some ideas", "I want you to ...").
    - ``"pleasantry"``: made only of greeting, thanks and acknowledgement words ("Thanks a lot!",
      "Sure, go ahead.", "Great idea!").
    - ``"statement"``: anything else ("I am allergic to kiwi.", "I want to visit Peru.").

    Args:
        sentence: One sentence.

    Returns:
        The speech act.
    """
    stripped = _read_past_fillers(sentence)
    words = STATEMENT_ANALYSER.words(stripped)
    if not words:
        return "pleasantry"
    if _NOT_TO_KEEP.match(stripped):
        return "request"
    fact = _fact_to_remember(stripped)
    if fact is not None:
        return "request" if not fact or fact.lower().startswith("to ") else speech_act(fact)
    if stripped.endswith("?") or _tag_question(stripped):
        return "question"
    first, opening = words[0], " ".join(words) + " "
    if first in _WH_WORDS or first in _AUXILIARIES or opening.startswith(_QUESTION_OPENERS):
        return "question"
    if first in _REQUEST_VERBS or first in ("let's", "lets", "please"):
        return "request"
    if _REQUEST_OPENERS.match(opening):
        return "request"
    if all(w in _PLEASANTRIES or w in _PLEASANTRY_FILLERS for w in words) and any(
        w in _PLEASANTRIES for w in words
    ):
        return "pleasantry"
    return "statement"


def _read_past_fillers(sentence: str) -> str:
    """The sentence without discourse markers and leading fillers (:func:`speech_act`)."""
    return _LEADING_FILLERS.sub("", _DISCOURSE.sub(" ", sentence).strip(" ,;:-"))


def _fact_to_remember(sentence: str) -> str | None:
    """What a request to remember asks to be remembered, or ``None`` if it is not one.

    ``sentence`` is read past its fillers. The fact is the text after the request's opening
    (:data:`_REMEMBER_REQUEST`), with a trailing "please" dropped and the question mark of a
    request asked as a question made a full stop; ``""`` for a request that names no fact
    ("Remember that!", "..., can you remember this?").
    """
    match = _REMEMBER_REQUEST.match(sentence)
    if match is None or (str(match["plain"]).lower() == "know" and not match["wanting"]):
        return None
    fact = _TRAILING_PLEASE.sub("", sentence[match.end() :])
    if not set(STATEMENT_ANALYSER.words(fact)) - _REQUEST_OBJECTS:
        return ""
    marked = bool(_MARKED.search(match["separator"]))
    that = match["separator"].strip().lower() == "that"
    if match["noting"] and not (marked or that):
        return None
    if match["storing"] and not (marked or that and _is_clause(fact)):
        return None
    if match["asking"]:
        if not (marked or _is_clause(fact)):
            return None
        fact = re.sub(r"\s*\?+$", ".", fact.rstrip())
    return fact


def _is_clause(text: str) -> bool:
    """Whether a text is a clause, not only a noun phrase ("my birthday").

    It is when it has a subject pronoun or an auxiliary verb (:data:`_CLAUSE_WORDS`), or a
    word with a verb's clitic: "my birthday is May 5", "I'm vegan", "we'll be in Rome".
    """
    return any(
        word in _CLAUSE_WORDS or word.endswith(("'m", "'re", "'ve", "'ll", "'d", "n't"))
        for word in STATEMENT_ANALYSER.words(text)
    )


def _tag_question(sentence: str) -> bool:
    """Whether a sentence is a statement with a question tag.

    The tag is :data:`_TAG` after the last comma ("I'm allergic to peanuts, right?") or
    :data:`_NEGATIVE_TAG` ending the sentence ("my birthday is may 5 isn't it"). An auxiliary
    and "you" after a statement not about the assistant is a question back ("I love sushi,
    do you?"), not a tag.
    """
    main, _, last = sentence.rpartition(",")
    tag = _TAG.match(normalize_text(last).replace("’", "'")) if main.strip() else None
    if tag is None:
        main, tag = sentence, _NEGATIVE_TAG.search(normalize_text(sentence).replace("’", "'"))
    if tag is None:
        return False
    if tag["auxiliary"] is None:
        return True
    opening = STATEMENT_ANALYSER.words(main)[:1]
    about_you = opening and opening[0].partition("'")[0] == "you"
    return tag["auxiliary"] in _AUXILIARIES and (tag["subject"] != "you" or bool(about_you))


def sentences(text: str) -> list[str]:
    """Split text into sentences at ``.``, ``!``, ``?`` or ``…`` before a space, and at breaks.

    Args:
        text: Any text.

    Returns:
        The non-blank sentences, stripped, in order.
    """
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]


MAX_STATEMENT_CHARS = 1000
"""Longest statement kept as a memory, in characters: a longer "sentence" is pasted material
(a document, a log, code), not something the user told the assistant about themselves."""


def memorable_text(text: str) -> str | None:
    """The statements of a user message, the part worth remembering.

    Questions (tag questions among them), requests and pleasantries are dropped (see
    :func:`speech_act`), and so are the clauses before a question that are not about the
    user and statements longer than :data:`MAX_STATEMENT_CHARS`. A request to remember keeps
    its fact, and a sentence ending in one with no fact keeps what comes before it
    ("Can you remember that my birthday is on May 5?" and "My birthday is on May 5, please
    remember that." keep "My birthday is on May 5."); discourse markers such as "by the way"
    are removed anywhere ("Thanks, I'm vegan, any recipe ideas?" keeps "I'm vegan.").

    Args:
        text: A user message.

    Returns:
        The statements joined by single spaces, or ``None`` when the message has none.
    """
    kept = []
    for sentence in sentences(text):
        for clause in _statement_clauses(sentence):
            if speech_act(clause) != "statement":
                continue
            clause = _DISCOURSE.sub(r"\1", clause)
            clause = _LEADING_FILLERS.sub("", clause.strip(" ,;:-"))
            fact = _fact_to_remember(clause)
            clause = (clause if fact is None else fact).strip(" ,;:-")
            clause = re.sub(r"\s+([,.!;:])", r"\1", re.sub(r"\s{2,}", " ", clause))
            clause = re.sub(r"[\s,;:-]+(?=[.!?…]*$)", "", clause)
            if normalize_text(clause) and len(clause) <= MAX_STATEMENT_CHARS:
                kept.append(clause[:1].upper() + clause[1:])
    return " ".join(kept) or None


def _statement_clauses(sentence: str) -> list[str]:
    """The parts of a sentence that may be statements, for :func:`speech_act` to read.

    The sentence itself, but: before a last clause that asks to remember without a fact
    ("..., can you remember that?"), what comes before it; a tag question, nothing; a
    question after commas, the clauses before it that are about the user (first person).
    """
    head, _, last = sentence.rpartition(",")
    if not head.strip():
        return [sentence]
    if _fact_to_remember(_read_past_fillers(last)) == "":
        end = "." if sentence.endswith("?") else sentence[len(sentence.rstrip(".!…")) :]
        return [head.rstrip() + end]
    if not sentence.endswith("?") or speech_act(sentence) != "question":
        return [sentence]
    if _tag_question(sentence):
        return []
    clauses = [f"{part.strip()}." for part in sentence.split(",")[:-1]]
    return [c for c in clauses if _FIRST_PERSON & set(STATEMENT_ANALYSER.words(c))]


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
        The words folded by :data:`memvault.words.STATEMENT_ANALYSER` (Snowball English
        stems, a final "i" of a long stem dropped), in order.
    """
    stopwords, words = STATEMENT_ANALYSER.stopwords, []
    for word in STATEMENT_ANALYSER.words(_DISCOURSE.sub(" ", text)):
        if word in stopwords:
            continue
        stem, _, clitic = word.partition("'")
        if clitic == "t" and stem.endswith("n"):  # don't, isn't, can't: a negation
            stem = {"ca": "can", "wo": "will", "sha": "shall"}.get(stem[:-1], stem[:-1])
            words.extend([stem, "not"] if stem not in stopwords else ["not"])
            continue
        if stem == "cannot":
            words.extend(["can", "not"])
            continue
        stem = _CANONICAL.get(stem, stem)
        if stem and stem not in stopwords:
            words.append(stem)
    return tuple(STATEMENT_ANALYSER.fold(word) for word in words)


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
    text and the description has at least one, unless the text negates what the description
    does not ("I'm not vegan anymore." does not state "I am vegan") or is about a person or pet
    the description does not name ("My sister lives in Porto." does not state "I live in
    Porto").

    Args:
        description: E.g. ``"I am learning Portuguese"``.
        text: A memory's text.

    Returns:
        ``True`` if the text states it.
    """
    wanted, said = content_words(description), content_words(text)
    if not wanted or not wanted <= said:
        return False
    extra = said - wanted
    return "not" not in extra and not (extra & _OTHER_STEMS)


NEAR_DUPLICATE_OVERLAP = 0.75
"""Least share of content words, in order, that :func:`near_duplicate` asks two texts to
have in common: the longest common subsequence over the longer text's length."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _common_subsequence(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Length of the longest common subsequence of two word sequences (dynamic programming)."""
    previous = [0] * (len(b) + 1)
    for word in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if word == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def near_duplicate(
    a: str,
    b: str,
    cosine: float | None,
    threshold: float,
    *,
    overlap: float = NEAR_DUPLICATE_OVERLAP,
) -> bool:
    """Whether two texts with different keys are close enough for one to overwrite the other.

    True when neither is a question, their cosine similarity is at least ``threshold``, at
    least ``overlap`` of their content words agree in order (:func:`content_sequence`, longest
    common subsequence over the longer length) and they hold the same numbers. This is the
    opt-in ``similarity_threshold`` merge of :class:`~memvault.AgentMemory`; texts with equal
    :func:`memory_key` merge without it.

    Measured with ``uv run python bench/similarity_threshold.py`` on hand-labelled pairs
    (``bench/paraphrase_pairs.jsonl``: paraphrases and hard negatives such as another date,
    person, side or a negation; figures in ``bench/README.md``): with MiniLM no threshold
    adds merges at high precision, since its cosine does not tell a paraphrase from a
    near-miss ("left knee" / "right knee"),
    so the default is off; a stronger embedder may earn a threshold, measured the same way.

    Args:
        a: One text.
        b: The other.
        cosine: Their cosine similarity, or ``None`` if unknown.
        threshold: Least cosine similarity, in ``[-1, 1]``.
        overlap: Least share of content words in common, in order, in ``[0, 1]``.

    Returns:
        Whether to treat them as one memory.
    """
    if speech_act(a) == "question" or speech_act(b) == "question":
        return False
    words_a, words_b = content_sequence(a), content_sequence(b)
    if cosine is None or cosine < threshold or not (words_a and words_b):
        return False
    shared = _common_subsequence(words_a, words_b) / max(len(words_a), len(words_b))
    numbers = set(_NUMBER.findall(a)) == set(_NUMBER.findall(b))
    return numbers and shared >= overlap
