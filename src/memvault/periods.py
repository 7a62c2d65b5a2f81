"""Calendar periods a query names, such as "in July 2022" or "on 1 May, 2022".

Hybrid search ranks a little higher the memories stored in a period the query names
(:func:`memvault.fusion.blend`'s ``dated``): on the LoCoMo benchmark, questions such as "What
movie did Joanna watch on 1 May, 2022?" find turns said that day or the days after ("I watched
it last night"), which share no word with the date. A memory's time is its ``created_at``: for
a conversation turn, when it was said.

Read are a day (``1 May, 2022``, ``3June, 2022``, ``May 1st, 2022``, ``2022-05-01``), a month
(``July 2022``, ``Jan, 2023``, ``2022-07``) and a year (``in 2022``, ``during 2019``: a year
alone, from 1900 to 2099, only after a word such as "in", "since", "before" or "year", so that
"2000 steps" names no year); month names in English whatever the locale, in full or cut to
three letters (``Sept`` too), in any case; ASCII digits only. A month or day without a year
("last May", "on the 3rd") names no period: its year would have to be guessed. Dates that do
not exist (``31 February, 2023``) are skipped. Periods are UTC days: what was said early on
the named day east of UTC falls on the day before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

DATE_SLACK = 7 * 86400.0
"""Seconds after a period's end in which a memory still counts as of that period: what
happened on a day is often told in the days after it ("last Friday"). Out of 0, 7 and 31 days,
chosen with :data:`memvault.fusion.DATE_BONUS`."""

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
"""English month names, January first: the same whatever the process's locale (``calendar``'s
names follow ``LC_TIME``)."""

_MONTHS = {name.lower(): number for number, name in enumerate(MONTH_NAMES, 1)}
_MONTHS.update({name[:3]: number for name, number in _MONTHS.items()})
_MONTHS["sept"] = 9
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_YEAR_CUES = "in|during|since|from|until|till|through|before|after|by|of|early|late|mid|year"
_PATTERN = re.compile(
    rf"""
    (?<![\d-])(?P<iso_year>\d{{4}})-(?P<iso_month>\d{{2}})(?:-(?P<iso_day>\d{{2}}))?(?!-?\d)
    | \b(?P<day>{_DAY})\s*(?:of\s+)?(?P<month>{_MONTH})\.?,?\s+(?P<year>\d{{4}})\b
    | \b(?P<month2>{_MONTH})\.?\s+(?P<day2>{_DAY}),?\s+(?P<year2>\d{{4}})\b
    | \b(?P<month3>{_MONTH})\.?,?\s+(?P<year3>\d{{4}})\b
    | \b(?:{_YEAR_CUES})\s+(?P<year4>19\d\d|20\d\d)\b(?![.,]?\d)
    """,
    re.IGNORECASE | re.VERBOSE | re.ASCII,
)


@dataclass(frozen=True)
class Period:
    """A span of time a query names.

    Attributes:
        start: Its first second, Unix seconds (UTC).
        end: The first second after it, Unix seconds (UTC), ``> start``.
    """

    start: float
    end: float

    def holds(self, seconds: float, *, slack: float = DATE_SLACK) -> bool:
        """Whether a time falls in the period or up to ``slack`` seconds after it.

        Args:
            seconds: Unix seconds, e.g. a memory's ``created_at``.
            slack: Seconds after :attr:`end` still counted, ``>= 0``.
        """
        return self.start <= seconds < self.end + slack


def _utc(year: int, month: int, day: int = 1) -> float:
    return datetime(year, month, day, tzinfo=timezone.utc).timestamp()


def _period(year: int, month: int | None, day: int | None) -> Period:
    """The day, month or year given; ValueError if it does not exist."""
    if month is None:
        return Period(_utc(year, 1), _utc(year + 1, 1))
    if day is None:
        following = (year + 1, 1) if month == 12 else (year, month + 1)
        return Period(_utc(year, month), _utc(*following))
    start = _utc(year, month, day)
    return Period(start, start + 86400.0)


def _number(text: str | None) -> int | None:
    return None if text is None else int(re.sub(r"\D", "", text))


def named_periods(query: str) -> list[Period]:
    """The distinct periods a query names, in the order it names them (see the module docstring).

    Args:
        query: A natural-language query, e.g. ``"Where did Joanna travel in July 2022?"``.

    Returns:
        One :class:`Period` for each date of the query that names one, empty if none does.

    Example:
        >>> [p.end - p.start for p in named_periods("on 1 May, 2022 or in 2023")]
        [86400.0, 31536000.0]
    """
    found = []
    for match in _PATTERN.finditer(query):
        parts = match.groupdict()
        if parts["iso_year"]:
            year, month, day = parts["iso_year"], parts["iso_month"], parts["iso_day"]
        elif parts["year4"]:
            year, month, day = parts["year4"], None, None
        else:
            year = parts["year"] or parts["year2"] or parts["year3"]
            month = parts["month"] or parts["month2"] or parts["month3"]
            day = parts["day"] or parts["day2"]
            month = str(_MONTHS[month.lower()])
        try:
            found.append(_period(int(year), _number(month), _number(day)))
        except ValueError:  # no such date (31 February, month 13, year 0)
            continue
    return list(dict.fromkeys(found))
