"""The black cat (U+1F408 U+200D U+2B1B) and the black bird (U+1F426 U+200D U+2B1B) join an emoji
to U+2B1B, outside the emoji planes: their joiner is ordinary text, so the patterns do not hold
them as "hidden"."""

from memvault.firewall import screen_patterns

BLACK_CAT = "\U0001f408\u200d\u2b1b"
BLACK_BIRD = "\U0001f426\u200d\u2b1b"


def test_black_cat_and_black_bird_pass_the_patterns():
    assert screen_patterns(f"My cat is a {BLACK_CAT}") is None
    assert screen_patterns(f"I saw a {BLACK_BIRD} today") is None
