"""``truncated(text, chars)`` gives a text of at most ``chars`` characters: the text itself when
it fits, else a start of it followed by ``… [truncated, N more characters]`` where N is what
was left out, cut after a whole word where one ends in the second half of the room."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.truncation import MIN_BUDGET_CHARS, truncated

MARKED = re.compile(r"(.*)… \[truncated, ([\d,]+) more characters\]", re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3000), st.integers(MIN_BUDGET_CHARS, 2500))
def test_a_cut_is_within_budget_and_counts_what_it_left_out(text, chars):
    cut = truncated(text, chars)
    assert len(cut) <= chars
    if len(text) <= chars:
        assert cut == text
        return
    kept, count = MARKED.fullmatch(cut).groups()
    assert text.startswith(kept)
    assert len(kept) + int(count.replace(",", "")) == len(text)
    assert truncated(cut, chars) == cut  # cutting again changes nothing


def test_a_cut_ends_after_a_whole_word():
    text = "My dog is called Rex and he likes long walks by the river. " * 100
    assert truncated(text, 100) == (
        "My dog is called Rex and he likes long walks by the river. My… [truncated, 5,839 more "
        "characters]"
    )
    assert truncated("x" * 5000, 100) == "x" * 64 + "… [truncated, 4,936 more characters]"
