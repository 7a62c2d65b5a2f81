r"""Format characters that are ordinary text: the one exception to "a character nobody sees".

Unicode format characters (category ``Cf``: zero-width spaces and joiners, bidi controls, tag
characters) are invisible, so the poisoning firewall holds a memory that carries one
(:mod:`memvault.firewall`) and the CLI prints them escaped (:mod:`memvault.cli`). Two uses of
them are everyday text, and both readers let them be:

- a zero-width joiner (U+200D) between two emoji, which makes one emoji of them (woman, U+200D,
  laptop: the technologist emoji; Unicode Technical Standard #51, "ZWJ sequences");
- the tag characters of a subdivision flag (U+1F3F4, tags spelling ``gbsct``, U+E007F:
  Scotland's flag; UTS #51, "tag sequences").
"""

from __future__ import annotations

import re
from typing import Final

_EMOJI = (
    "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\u2190-\u21ff\u25a0-\u25ff"
    "\u2934\u2935\u3030\u303d\u3297\u3299\u00a9\u00ae\u203c\u2049\u2122\u2139\u24c2"
)
"""The characters a ZWJ may join (Unicode's Extended_Pictographic, by block where a block is
mostly emoji): the emoji planes, the dingbats and symbols, arrows, technical symbols (U+23xx),
geometric shapes and the black large square U+2B1B (the black cat, U+1F408 U+200D U+2B1B), and
the scattered ones (the copyright sign, U+3030 ...)."""

EMOJI_SEQUENCES: Final = re.compile(
    f"\U0001f3f4[\U000e0061-\U000e007a]{{2,6}}\U000e007f|(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])"
)
"""A subdivision flag (its black flag, tags and cancel tag), or a zero-width joiner between two
emoji: the format characters that are ordinary text (``EMOJI_SEQUENCES.sub("", text)`` leaves
only those a reader does not see)."""
