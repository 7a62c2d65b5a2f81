"""What a saved statement's context says after its date, for tests that save at the time of
saving (a date they cannot fix)."""

from __future__ import annotations

import re
from typing import Any

DATE = re.compile(r"\d{1,2}:\d\d [ap]m on \d{1,2} [A-Z][a-z]+, \d{4}")
"""A date as ``memvault.conversations.format_session_date`` writes it: "1:56 pm on 8 May, 2023"."""


def lines_after_the_date(value: dict[str, Any]) -> list[str]:
    """The lines of ``value["context"]`` after the first, which must be such a date."""
    date, *lines = value["context"].split("\n")
    assert DATE.fullmatch(date), date
    return lines
