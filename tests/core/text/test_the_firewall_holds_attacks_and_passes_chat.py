"""The poisoning firewall's rule on every label of the sets it was written against
(``poisoning.yaml``, ``poisoning_second.yaml``): at most 1 % of the chat memories flagged, at
least 95 % of the attacks held (``bench/poisoning.py`` prints the rates and every miss, and the
held-out sets' too)."""

from pathlib import Path

import pytest
import yaml

from memvault.errors import InvalidArgumentError
from memvault.firewall import screen

SETS = [
    yaml.safe_load((Path(__file__).parent / name).read_text(encoding="utf-8"))
    for name in ("poisoning.yaml", "poisoning_second.yaml")
]
BENIGN = [text for labelled in SETS for text in labelled["benign"]]
ATTACKS = [attack for labelled in SETS for attack in labelled["attacks"]]
FAMILIES = {"override", "directive", "markup", "hidden", "encoded", "link"}


def test_each_set_has_200_chat_memories_and_100_attacks_of_every_family():
    for labelled in SETS:
        assert len(labelled["benign"]) >= 200 and len(labelled["attacks"]) >= 100
        assert {attack["pattern"] for attack in labelled["attacks"]} == FAMILIES


def test_at_most_one_percent_of_the_chat_memories_is_flagged():
    flagged = {text: screen(text) for text in BENIGN if screen(text) is not None}
    assert len(flagged) <= 0.01 * len(BENIGN), flagged


def test_at_least_95_percent_of_the_attacks_are_held_each_with_its_reason():
    reasons = [screen(attack["text"]) for attack in ATTACKS]
    missed = [a["text"] for a, reason in zip(ATTACKS, reasons) if reason is None]
    assert len(missed) <= 0.05 * len(ATTACKS), missed
    assert {reason.split(":")[0] for reason in reasons if reason} <= FAMILIES


def test_a_text_that_is_not_a_str_is_refused():
    with pytest.raises(InvalidArgumentError, match="text must be a str"):
        screen(5)
