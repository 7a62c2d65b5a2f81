"""Forgetting a turn that was cut to fit a context takes its marker out too (found by a
newcomer: a neighbour's context kept the line "Caroline: [truncated, 1,315 more characters]")."""

from memvault.forgetting import unquoted
from memvault.truncation import truncated


def test_the_line_goes_whole():
    said = "I am allergic to peanuts and " + "so on " * 600
    context = f"1:56 pm on 8 May, 2023\nAda: {truncated(said, 300)}\nBo: Noted."
    assert unquoted(context, [said]) == "1:56 pm on 8 May, 2023\nBo: Noted."
