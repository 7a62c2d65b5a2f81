"""The dates a query names become the calendar periods hybrid search favours (UTC)."""

from datetime import date, datetime, timezone

import pytest

from memvault.periods import DATE_SLACK, Period, named_periods


def days(query):
    """Each period as (first day, first day after), UTC."""
    return [
        tuple(datetime.fromtimestamp(t, timezone.utc).date() for t in (p.start, p.end))
        for p in named_periods(query)
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What movie did Joanna watch on 1 May, 2022?", [(date(2022, 5, 1), date(2022, 5, 2))]),
        ("the week before 3June, 2022", [(date(2022, 6, 3), date(2022, 6, 4))]),
        ("What painting on October 13th, 2023?", [(date(2023, 10, 13), date(2023, 10, 14))]),
        ("on the 13th of october 2023", [(date(2023, 10, 13), date(2023, 10, 14))]),
        ("Where did she travel in July 2022?", [(date(2022, 7, 1), date(2022, 8, 1))]),
        ("in Dec, 2023", [(date(2023, 12, 1), date(2024, 1, 1))]),
        ("Sept 2021", [(date(2021, 9, 1), date(2021, 10, 1))]),
        (
            "2022-05-01 or 2022-07",
            [(date(2022, 5, 1), date(2022, 5, 2)), (date(2022, 7, 1), date(2022, 8, 1))],
        ),
        ("2022-05-01T10:00:00Z", [(date(2022, 5, 1), date(2022, 5, 2))]),
        ("What happened in 2019?", [(date(2019, 1, 1), date(2020, 1, 1))]),
        ("since early 2021, she", [(date(2021, 1, 1), date(2022, 1, 1))]),
    ],
)
def test_a_day_a_month_or_a_year_is_read(query, expected):
    assert days(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "What did she do last May?",  # no year: which May is a guess
        "on the 3rd",
        "31 February, 2023",  # no such day
        "2022-13",  # no such month
        "1200 calories in 1850",  # a bare number outside 1900-2099 is no year
        "I walked 2000 steps",  # a number alone is a year only after "in", "since", ...
        "Did she read 1984?",
        "It cost 2022 dollars",
        "covid-2019, version 2.2022",
        "part 2022-05-1234",
        "Marcus bought 3 bikes",
    ],
)
def test_what_names_no_period_gives_none(query):
    assert named_periods(query) == []


def test_a_period_holds_its_own_time_and_the_slack_after_it_only():
    (may,) = named_periods("in May 2022")
    start = datetime(2022, 5, 1, tzinfo=timezone.utc).timestamp()
    end = datetime(2022, 6, 1, tzinfo=timezone.utc).timestamp()
    assert may == Period(start, end)
    assert may.holds(start) and may.holds(end - 1)
    assert may.holds(end + DATE_SLACK - 1) and not may.holds(end + DATE_SLACK)
    assert not may.holds(start - 1)
    assert not may.holds(end, slack=0)
