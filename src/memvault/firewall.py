r"""The poisoning firewall: the one rule that tells a memory reading as an instruction to the model.

A memory is text an attacker can plant through ordinary conversation (MINJA, Dong et al. 2025,
arXiv:2503.03704: queries whose "bridging steps" end up stored and recalled for another user)
or a shared namespace, and a recalled memory is put into the model's prompt. Rendering keeps
memories fenced as data (:func:`memvault.format_memories`); this rule goes further and *holds*
a memory that reads as an instruction, so it is not put into a prompt at all (the agent layer
stores it flagged ``"quarantined"``, see :mod:`memvault.agent`).

:func:`screen` returns the first reason a text is held, or ``None``. The reasons, each a
pattern family from the published attacks (the citations say where each comes from):

- ``"override"``: "ignore / disregard / forget (all) previous instructions", "new
  instructions:", "you are now ...", "developer mode": the goal hijacking of Perez & Ribeiro
  2022 ("Ignore Previous Prompt", arXiv:2211.09527), the indirect injections of Greshake et
  al. 2023 ("Not what you've signed up for", arXiv:2302.12173) and AgentDojo's
  ``ignore_previous`` attack (Debenedetti et al. 2024, arXiv:2406.13352).
- ``"directive"``: a sentence addressed to the assistant: "always answer / respond / recommend
  ...", "never tell the user ...", "you must / should always ...", "in your response include
  ...", "when the user asks about X, answer Y" (the trigger-action records of MINJA and of
  PoisonedRAG, Zou et al. 2024, arXiv:2402.07867, and AgentPoison, Chen et al. 2024,
  arXiv:2407.12784), the task-irrelevant instructions of BIPIA (Yi et al. 2023,
  arXiv:2312.14197: "respond in ...", "add an advertisement ...", "reveal your system
  prompt") and AgentDojo's ``important_instructions`` ("this is an important message from me
  to you, the AI ... before you solve the task ...") and tool-use goals ("send / transfer /
  forward ... to ...").
- ``"markup"``: chat-template and tool-call markup that would let a memory pose as another
  turn: ``<|im_start|>`` and other ``<|...|>`` special tokens (ChatML), ``[INST]``,
  ``<<SYS>>`` (Llama 2), ``### Instruction:``, a line starting ``system:`` /
  ``assistant:``, ``<tool_call>`` / ``<function_calls>`` and OpenAI ``"tool_calls"`` JSON,
  AgentDojo's ``<INFORMATION>`` wrapper.
- ``"hidden"``: characters a reader does not see but a model reads: Unicode format
  characters (category ``Cf``: zero-width spaces and joiners, bidi overrides and isolates,
  the tag characters of "ASCII smuggling", soft hyphens), private-use characters (``Co``) and
  control characters other than tab and newline (``Cc``), the "Trojan Source" and invisible
  prompt injection of Boucher et al. 2022 (arXiv:2106.09898) and Goodside's tag-character
  injection. Unicode categories come from :mod:`unicodedata`. A zero-width joiner between
  two emoji (woman, U+200D, laptop: the technologist emoji) and the tag characters of a
  subdivision flag (Scotland's) are ordinary text and pass.
- ``"encoded"``: a base64 blob (40 or more base64 characters, mixed case with a digit, that
  decode) carrying an instruction past word filters (Greshake et al. 2023, section on
  encoded payloads; Wei et al. 2023, "Jailbroken", arXiv:2307.02483).
- ``"link"``: a link the model is asked to fetch or to render (an imperative "visit / open /
  fetch / browse / load / download ... https://..."; a markdown image with a remote
  address, the exfiltration channel of Greshake et al. 2023 and Rehberger's "prompt injection
  to data exfiltration" write-ups; an address with a placeholder to fill with the
  conversation, ``?q={...}``).

What it does not catch, by design: a preference stated as a fact ("The user prefers answers
in French.", "I like short replies") is a memory, not an instruction, and passes; an
instruction in other words than these (a paraphrase, another language) passes too. Measured
on a hand-labelled set (``tests/core/text/poisoning.yaml``, printed by ``bench/poisoning.py``):
on the 259 chat memories and 175 attacks it was written against, 0 flagged and all held; on
30 + 25 written after it was last changed, 0 flagged and 19 of 25 held (76 %); on the 2,760
turns of five LoCoMo conversations, 0 flagged. Patterns are regular expressions of ours,
searched once each; :func:`screen` takes about 0.2 ms a memory.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from memvault.errors import InvalidArgumentError, shown

QUARANTINED: Final = "quarantined"
"""The value field the agent layer writes on a memory the rule holds: the reason, a str."""

_F = re.IGNORECASE | re.MULTILINE

_TARGET = (
    r"(?:instructions?|prompts?|rules?|directions?|directives?|guidelines?|commands?|context|"
    r"messages?|orders?|guidance|constraints?|policies|policy|programming|settings|"
    r"conversations?|chats?|discussion|text|input)"
)
_BEFORE = (
    r"(?:previous|prior|preceding|earlier|above|foregoing|former|original|initial|old|existing|"
    r"system|all|any|every|the|your|these|those|other)"
)

OVERRIDE: Final = re.compile(
    rf"\b(?:ignore|disregard|forget|override|overrule|bypass|skip|drop|discard|abandon|neglect)\s+"
    rf"(?:(?:all|any|every|each|of|the|your|my|these|those|what|everything|that)\s+){{0,4}}"
    rf"(?:{_BEFORE}\s+){{1,3}}(?:\w+\s+)?{_TARGET}\b"
    rf"|\bignore\s+(?:everything|all)\s+(?:above|before|else|you\s+(?:were|have\s+been)\s+told)"
    rf"|\bnew\s+(?:system\s+)?(?:instructions?|rules|directives?|task)\s*:"
    rf"|\b(?:updated|revised|real|true|actual|secret|hidden)\s+(?:system\s+)?instructions?\s*:"
    rf"|\byou\s+are\s+now\s+(?:an?|the|my|in|dan|free|unrestricted|called|named|operating|acting|playing|working\s+for|authori[sz]ed|allowed|permitted|jailbroken)\b"
    rf"|\byou\s+are\s+no\s+longer\s+(?:an?|the|bound|restricted|limited|required|an?\s+ai|a\s+language|an\s+assistant)\b"
    rf"|\bfrom\s+now\s+on,?\s+you\b"
    rf"|\b(?:from\s+(?:this|that)\s+point\s+(?:on|forward)|from\s+now\s+on|going\s+forward|"
    rf"henceforth|hereafter|from\s+here\s+on)\b,?\s+(?:\w+\s+){{0,2}}?(?:respond|reply|answer|"
    rf"speak|write|translate|output|talk\s+only|only\s+(?:respond|reply|answer|say|speak)|"
    rf"every\s+(?:answer|response|reply))\b"
    rf"|\b(?:developer|god|jailbreak|dan|unrestricted|unfiltered|debug|maintenance|admin|sudo|root|"
    rf"test)\s+mode\b"
    rf"|\b(?:ignore|disregard|forget|bypass|override|set\s+aside|stop\s+following|abandon|drop|"
    rf"suspend|turn\s+off|disable|lift|remove)\s+(?:all\s+|any\s+|of\s+)*(?:your|the|its)\s+"
    rf"(?:\w+\s+)?(?:training|guidelines|programming|restrictions|filters?|guardrails|safety"
    rf"(?:\s+\w+)?|content\s+(?:policy|restrictions|filters?)|policies|constraints|limits|"
    rf"directives|instructions|system\s+prompt|rules)\b"
    rf"|\b(?:whatever|what|everything|anything)\s+you\s+(?:were|have\s+been|had\s+been|are)\s+"
    rf"(?:told|instructed|given|programmed)\b"
    rf"|\b(?:system|security|safety|admin)\s+override\b"
    rf"|\b(?:safety|content\s+filters?|filters?|guardrails|restrictions)\s+(?:are\s+)?"
    rf"(?:off|disabled|lifted|removed)\b"
    rf"|\bthis\s+is\s+your\s+(?:developer|creator|admin(?:istrator)?|owner|operator|maker|"
    rf"programmer|system)\b"
    rf"|\b(?:print|reveal|show|list|output|repeat|leak|dump|display|disclose|share)\s+"
    rf"(?:me\s+)?(?:all\s+)?(?:of\s+)?your\s+(?:full\s+|hidden\s+|secret\s+|original\s+|"
    rf"internal\s+|entire\s+|complete\s+|system\s+)*(?:configuration|config|instructions|"
    rf"guidelines|programming|prompt|rules|directives|settings|api\s+keys?|secrets?|memory|"
    rf"memories|context)\b"
    rf"|\b(?:do|follow|obey|execute)\s+(?:whatever|what|everything|anything)\s+(?:the\s+)?"
    rf"(?:next|following|this|that|above|below)\s+(?:\w+\s+)?(?:says|asks|tells|requests|"
    rf"instructs)\b"
    rf"|\bthe\s+user\s+is\s+(?:actually\s+|really\s+|now\s+)?(?:an?\s+)?(?:admin|"
    rf"administrator|developer|owner|root|superuser|moderator|verified|authori[sz]ed|vip)\b"
    rf"|\bskip\s+(?:all\s+|any\s+|the\s+)?(?:permission|identity|security|safety|"
    rf"verification|authentication|auth)\s+checks?\b"
    rf"|\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)|an?\s+unrestricted|dan)\b"
    rf"|(?:^|[.!?;:,]\s+|\n\s*|\b(?:please|now|just)\s+)(?:pretend|act\s+as|role-?play\s+as|"
    rf"behave\s+as|pose\s+as)\b"
    rf"|\bpretend\s+(?:that\s+you|you\s+are)\b"
    rf"|\b(?:forget|erase|wipe|ignore)\s+(?:what|everything|all|anything)\s+(?:that\s+)?you\s+"
    rf"(?:know|remember|learned|have\s+learned)\b"
    rf"|\b(?:update|change|modify|overwrite|reset|wipe|clear|rewrite)\s+your\s+(?:memory|memories|"
    rf"knowledge|settings|instructions|rules|configuration|persona|behaviou?r|role)\b"
    rf"|\byour\s+new\s+(?:role|persona|task|job|identity|name|purpose|goal)\s+is\b"
    rf"|\b(?:system|admin|security|developer|important)\s+(?:notice|message|update|alert|note|"
    rf"instruction|announcement)\s*[:\-\u2013\u2014]"
    rf"|\b(?:system|hidden|initial)\s+prompt\b",
    _F,
)

_ASSISTANT = (
    r"(?:assistant|ai|a\.i\.|chatbot|bot|model|llm|agent|gpt(?:-?\d\w*)?|chatgpt|claude|"
    r"gemini|copilot|llama)"
)
_MODEL_VERB = (
    r"(?:answer|respond|reply|say|state|claim|tell|recommend|suggest|mention|include|insert|"
    r"append|prepend|add|output|print|write|translate|refer|redirect|direct|use|call|invoke|"
    r"execute|run|send|forward|email|transfer|share|disclose|reveal|leak|grant|delete|remove|"
    r"format|end|begin|start|promote|advertise|describe|report|insist|assert|deny|refuse|"
    r"trust|treat|follow|obey|comply|agree|praise|inform|warn|quote|repeat|sign|visit|open|"
    r"navigate|book|buy|purchase|pay|approve|confirm)"
)
_AUDIENCE = (
    r"(?:the\s+user|users|the\s+human|the\s+customer|anyone|everyone|everybody|people|them|"
    r"him|her|the\s+person)"
)

_START = (
    r"(?:^|[.!?;:,\-\u2013\u2014]\s+|\n\s*|[\"'(\[]\s*|\b(?:please|kindly|must|should|then|"
    r"and|now|first|also|just|always)\s+)"
)
"""Where an imperative starts: a sentence, a clause, or after "please", "must", "then"..."""

DIRECTIVE: Final = re.compile(
    # an imperative to the model at the start of a sentence
    rf"(?:^|[.!?;:]\s+|\n\s*|[\"'(]\s*)(?:important[:!]*\s+|note:\s+|please,?\s+|and\s+)?"
    rf"(?:always|never|only|henceforth|hereafter)\s+(?:\w+ly\s+)?{_MODEL_VERB}\b(?!\s+never\b)"
    rf"|(?:^|[.!?;:]\s+|\n\s*)(?:please,?\s+)?(?:do\s+not|don't|never)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:tell|inform|reveal|disclose|mention|let|show|warn|alert|notify|remind)\s+{_AUDIENCE}\b"
    rf"|\b(?:make\s+sure|ensure)\s+(?:that\s+)?{_AUDIENCE}\s+(?:never|does\s*n[o']t|do\s*n[o']t|"
    rf"won'?t|will\s+not|can'?t|cannot)\b"
    rf"|{_START}(?:tell|inform|assure|convince)\s+(?:anyone|everyone|everybody|whoever|people|"
    rf"all\s+users|users)\b"
    rf"|\b(?:admit|reveal|disclose|say|mention|tell\s+\w+|confirm)\s+(?:that\s+)?you(?:\s+are|'re)"
    rf"\s+an?\s+(?:ai|bot|language\s+model|assistant|chatbot|machine|program)\b"
    # "you must / should ..." the way an instruction to a model is said
    rf"|\byou\s+(?:must|should|shall|have\s+to|need\s+to|are\s+(?:required|instructed|supposed|"
    rf"expected)\s+to|will)\s+(?:now\s+|always\s+|never\s+|only\s+|from\s+now\s+on\s+|"
    rf"henceforth\s+|immediately\s+|first\s+)+{_MODEL_VERB}\b"
    rf"|\byou\s+(?:are|'re)\s+(?:obliged|obligated|required|instructed|ordered|commanded)\s+to\b"
    rf"|\byou\s+(?:must|should|shall|have\s+to|need\s+to)\s+(?:\w+\s+){{0,2}}?"
    rf"(?:respond|reply|answer|output|recommend|tell\s+{_AUDIENCE}|refer\s+{_AUDIENCE}|"
    rf"call\s+the\s+\w+\s*(?:tool|function|api)|use\s+the\s+\w+\s+(?:tool|function|api))\b"
    # the model's output named as what to change
    rf"|\b(?:in|to|into|at\s+the\s+(?:start|end|beginning|top|bottom)\s+of|before|after|with)"
    rf"\s+(?:each\s+of\s+|every\s+|all\s+(?:of\s+)?)?(?:your|every|each|all|any)\s+(?:future\s+|next\s+|subsequent\s+)?"
    rf"(?:responses?|answers?|replies|reply|outputs?|completions?|messages\s+to\s+the\s+user)\b"
    rf"|\byour\s+(?:future\s+|next\s+)?(?:responses?|answers?|replies|reply|outputs?)\s+"
    rf"(?:must|should|shall|need\s+to|has\s+to|have\s+to|will)\b"
    # trigger and action: "when the user asks about X, answer Y"
    rf"|\b(?:when(?:ever)?|if|each\s+time|every\s+time|any\s+time|once)\s+(?:the\s+user|a\s+user|"
    rf"users|anyone|someone|somebody|the\s+customer|a\s+customer|the\s+human|you\s+are\s+asked|"
    rf"asked)\b[^.!?\n]{{0,120}}?,?\s*(?:then\s+)?(?:you\s+(?:must|should|will)\s+)?(?:always\s+)?"
    rf"(?:answer|respond|reply|say|tell\s+(?:them|him|her|the\s+user)|recommend|suggest|refer|"
    rf"redirect|direct\s+them|output|claim|insist|send|call|use\s+the|point\s+them)\b"
    # an imperative on what the model answers: "translate every answer", "reply to all future
    # questions", "add ... to everything you write"
    rf"|{_START}(?:respond|reply|answer|translate|write|format|encode|end|start|begin|sign|prefix|"
    rf"suffix|append|prepend|add|include|put|insert|print|output)\b[^.!?\n]{{0,60}}?\b(?:to|in|into|"
    rf"of|with|on)?\s*(?:every|all|each|any|the\s+next|future|subsequent)\s+(?:of\s+)?"
    rf"(?:your\s+|the\s+)?(?:future\s+|subsequent\s+|next\s+|user\s+|(?!my\b|our\b)\w+\s+)?"
    rf"(?:answers?|"
    rf"responses?|replies|reply|questions?|queries|requests?|messages?|outputs?|prompts?)\b"
    rf"|\b(?:every|each|all|any)\s+(?:of\s+)?(?:your\s+)?(?:answers?|responses?|replies|"
    rf"outputs?)\s+(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|will)\b"
    rf"|\b(?:remember|make\s+sure|be\s+sure|don'?t\s+forget)\s+to\s+(?:always|never)\s+"
    rf"{_MODEL_VERB}\b"
    rf"|\b(?:send|forward|email|upload|post|copy|share|leak|export|sync|delete|remove|erase|cancel|"
    rf"include|reveal|disclose|expose|publish|change|modify|read\s+out)\s+(?:all\s+(?:of\s+)?)?"
    rf"(?:the\s+)?(?:user'?s|users'?)\s+\w+"
    rf"|\b(?:everything|anything|whatever)\s+you\s+(?:write|say|output|answer|reply|produce|"
    rf"respond|send|generate)\b"
    rf"|\b(?:tell|inform|remind|warn|convince|persuade|notify|assure)\s+(?:the|this|every|each|"
    rf"any)\s+(?:user|customer|human|caller|patient)s?\b(?=\s*(?:[.,;:!]|$|that|to|about|the|"
    rf"their|his|her|it|nothing|everything|they|he|she|you|we|this|not|so|of|how|what|when|why))"
    rf"|(?:^|[.!?;:]\s+|\n\s*)(?:please\s+|kindly\s+|now\s+)?(?:answer|respond\s+to|reply\s+to)"
    rf"\s+(?:all|every|any|each)\s+(?:(?!my\b|our\b)\w+\s+)?(?:questions?|queries|requests?|"
    rf"messages?)\b"
    rf"|\b(?:when(?:ever)?|if|each\s+time|every\s+time|any\s+time|next\s+time|once)\b"
    rf"[^.!?\n]{{0,100}}?\b(?:ask|asks|asked|asking|comes?\s+up|mentions?|mentioned|brings?\s+up|"
    rf"raises?|is\s+(?:discussed|raised|mentioned)|talks?\s+about|wants?\s+to\s+know)\b"
    rf"[^.!?\n]{{0,60}}?[,;:]\s*(?:just\s+|then\s+|always\s+|only\s+|simply\s+|please\s+)?"
    rf"(?:say|answer|respond|reply|claim|insist|tell|recommend|suggest|mention|refer|redirect|"
    rf"deny|state|assert|explain\s+that|point)\b"
    rf"|(?:{_START}|\bby\s+)(?:call|invoke|use|run|execute|trigger)(?:ing)?\s+(?:the\s+|your\s+)?"
    rf"[\w-]+\s+(?:tool|function|command|api|endpoint|plugin)\b"
    rf"|\b(?:using|with|via)\s+(?:the\s+|your\s+)?(?:shell|terminal|code|python|browser|email|"
    rf"payment|bash)\s+(?:tool|function|plugin)\b"
    rf"|\b\w+_\w+\s+(?:tool|function)\b"
    rf"|\b(?:pay|purchase|buy|order|book|transfer)\b[^\n]{{0,80}}?\b(?:saved|stored|user'?s|"
    rf"their|his|her)\s+(?:credit\s+|debit\s+|bank\s+)?(?:card|account|wallet|payment)"
    rf"|\b(?:the\s+)?(?:secret|real|true|hidden)\s+(?:rule|instruction|"
    rf"directive|command|order)\s+(?:is|says|:)"
    # the model named and told
    rf"|\b(?:note|message|instruction|reminder|memo|attention|important|p\.?\s?s\.?)\s+(?:to|for)\s+"
    rf"(?:the\s+|any\s+|all\s+)?{_ASSISTANT}s?\b"
    rf"|\b(?:dear|hey|hi|hello|attention|to)\s+(?:there\s+)?(?:the\s+)?{_ASSISTANT}\s*"
    rf"[,:!.\-\u2013\u2014]"
    rf"|\b(?:note|message|memo|reminder)\s+(?:for|to)\s+(?:whoever|whatever|anyone\s+who|the\s+one)"
    rf"\s+(?:reads|sees|processes|loads)\b"
    rf"|(?:^|[.!?;]\s+)\s*{_ASSISTANT}\s*[,:]\s+(?:\w+\s+)?(?:you|always|never|do|please|"
    rf"ignore|disregard|forget|from|reveal|tell|say|stop|send)\b"
    rf"|\b(?:message|request)\s+from\s+me,?\s+[^.\n]{{0,60}}\bto\s+you\b"
    rf"|\bbefore\s+you\s+(?:can\s+)?(?:solve|do|complete|answer|finish|continue|proceed\s+with)"
    rf"\s+(?:the|this|my|your|any)\s+(?:task|request|question)"
    rf"|\b(?:the\s+)?user\s+(?:has\s+)?(?:wants|would\s+like|asked|instructed|authori[sz]ed|allowed|permitted)"
    rf"\s+(?:you|the\s+{_ASSISTANT})\s+to\b"
    rf"|\b(?:the\s+)?(?:assistant|ai|model|agent|chatbot|bot)\s+(?:must|should|shall|has\s+to|"
    rf"needs\s+to|is\s+(?:required|instructed|allowed|permitted)\s+to|will\s+(?:now|always))\b"
    # tool-use goals of the agent attacks: move money, send data, grant access
    rf"|\b(?:send|forward|email|upload|post|transfer|wire|exfiltrate|leak|share|copy)\s+"
    rf"(?:all\s+|every\s+|the\s+|a\s+copy\s+of\s+|the\s+contents?\s+of\s+|my\s+|his\s+|her\s+|their\s+|"
    rf"the\s+user'?s\s+|this\s+)*(?:\w+\s+){{0,2}}?(?:passwords?|credentials|api\s+keys?|tokens?|"
    rf"credit\s+card(?:\s+numbers?)?|ssn|social\s+security|private\s+keys?|seed\s+phrases?|"
    rf"chat\s+(?:history|logs?)|conversation(?:s|\s+history)?|messages|emails|files|contacts|"
    rf"memor(?:y|ies)|(?:bank\s+)?account\s+details|iban)\b[^.\n]{{0,60}}\b(?:to|with)\b"
    rf"|\b(?:transfer|wire|send)\s+\$?\d[\d,.]*\s*(?:\$|usd|eur|euros?|dollars?|gbp|btc)?\s+"
    rf"to\s+(?:the\s+)?(?:account|iban|wallet|address)"
    rf"|\bgrant\s+(?:permanent\s+|full\s+|admin\s+)?access\b",
    _F,
)

MARKUP: Final = re.compile(
    r"<\|[a-z_]{2,30}\|>"  # ChatML and other special tokens: <|im_start|>, <|system|>, <|eot_id|>
    r"|\[/?INST\]|<</?SYS>>|</?s>(?=\s|$)"  # Llama 2
    r"|\[/?(?:system|sys|admin|developer|assistant|instructions?)\]"
    r"|^\s*#{2,}\s*(?:instruction|system|response|assistant|human|user)\b\s*:?"  # Alpaca
    r"|^\s*(?:system|assistant|developer|tool)\s*:"  # a role line
    r"|^\s*(?:human|user)\s*:\s*[^\n]*\n\s*(?:assistant|ai)\s*:"  # a forged exchange
    r"|</?(?:system|assistant|tool_call|tool_calls|function_calls?|invoke|tool_result|"
    r"instructions?|information|important|admin|developer|prompt)(?:\s[^>]{0,80})?>"
    r"|\"(?:tool_calls|function_call|tool_use|role)\"\s*:",
    _F,
)

_FLAG_TAGS = re.compile("\U0001f3f4[\U000e0061-\U000e007a]{2,6}\U000e007f")
"""The tag characters of a subdivision flag (England, Scotland, Wales), ordinary text."""
_EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf"
_EMOJI_JOIN = re.compile(f"(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])")
"""A zero-width joiner between two emoji (the technologist emoji), ordinary text."""

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=_-])")

_URL = r"(?:https?://|www\.)\S+"
LINK: Final = re.compile(
    rf"(?:^|[.!?;:,]\s+|\n\s*|\b(?:please|always|first|then|must|should|to|and)\s+)"
    rf"(?:visit|open|fetch|browse(?:\s+to)?|load|download|retrieve|navigate\s+to|go\s+to|access|"
    rf"curl|request|follow|click(?:\s+on)?|read\s+and\s+follow|render|embed|display)\b[^.!?\n]{{0,60}}?{_URL}"
    rf"|!\[[^\]\n]{{0,100}}\]\(\s*{_URL}"
    rf"|{_URL}[?&][^\s]*(?:\{{[^}}\s]{{0,60}}\}}|\[[A-Z_ ]{{3,40}}\]|<[A-Z_ ]{{3,40}}>|%7B)",
    _F,
)


def screen(text: str) -> str | None:
    """Why a memory's text reads as an instruction to the model, or ``None`` if it does not.

    The rule is the module's: the first of ``"hidden"``, ``"markup"``, ``"override"``,
    ``"directive"``, ``"link"``, ``"encoded"`` that matches, with what matched, e.g.
    ``"override: 'Ignore all previous instructions'"`` or ``"hidden: U+202E"``.

    Args:
        text: A memory's text (any length; the rule is linear in it).

    Returns:
        The reason (a short str naming the pattern family and what matched), or ``None``.

    Raises:
        InvalidArgumentError: If ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"text must be a str, got {shown(text)}")
    hidden = _hidden(text)
    if hidden is not None:
        return f"hidden: U+{ord(hidden):04X} {unicodedata.name(hidden, 'unnamed')}"
    for family, pattern in (
        ("markup", MARKUP),
        ("override", OVERRIDE),
        ("directive", DIRECTIVE),
        ("link", LINK),
    ):
        found = pattern.search(text)
        if found is not None:
            return f"{family}: {found.group(0).strip()[:80]!r}"
    blob = _encoded(text)
    if blob is not None:
        return f"encoded: {blob[:40]!r}..."
    return None


def held(value: Mapping[str, Any]) -> str | None:
    """Why a stored memory is held from prompts, or ``None`` if it may be injected.

    The reason the agent layer recorded when it wrote the memory (``value["quarantined"]``),
    else :func:`screen` of its ``"text"`` now, so a memory written without the agent layer
    (``MemoryStore.put``, an import, an ingest, an older version) is held as well.

    Args:
        value: A memory's value (``MemoryItem.value``).

    Returns:
        The reason, or ``None``.
    """
    marked = value.get(QUARANTINED)
    if isinstance(marked, str) and marked:
        return marked
    text = value.get("text")
    return screen(text) if isinstance(text, str) else None


def _hidden(text: str) -> str | None:
    """The first invisible character of ``text``, or ``None``.

    That is a ``Cf``, a ``Co``, or a ``Cc`` other than tab, newline and carriage return;
    emoji joiners and flag tags are left out.
    """
    visible = _EMOJI_JOIN.sub("", _FLAG_TAGS.sub("", text))
    for char in visible:
        category = unicodedata.category(char)
        if category in ("Cf", "Co") or (category == "Cc" and char not in "\t\n\r"):
            return char
    return None


def _encoded(text: str) -> str | None:
    """The first run of ``text`` that is base64 of 30 bytes or more (mixed case, a digit)."""
    for found in _BASE64.finditer(text):
        run = found.group(0)
        if not (re.search(r"[a-z]", run) and re.search(r"[A-Z]", run) and re.search(r"\d", run)):
            continue
        try:
            base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        return run
    return None
