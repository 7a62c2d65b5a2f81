"""``screen_many`` given one str, or ``held_many`` given one value (a mapping), refuses it with a
typed error naming the argument, rather than screening each character or key."""

import pytest

from memvault.errors import InvalidArgumentError
from memvault.firewall import held_many, screen_many


def test_screen_many_refuses_a_str():
    with pytest.raises(InvalidArgumentError, match="texts must be a sequence"):
        screen_many("some text")


def test_held_many_refuses_a_mapping():
    with pytest.raises(InvalidArgumentError, match="values must be a sequence"):
        held_many({"text": "I like tea"})
