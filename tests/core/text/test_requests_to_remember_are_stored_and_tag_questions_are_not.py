"""A request to remember stores the fact it carries, the request around it removed; a tag
question, a question about what is remembered, a request to forget and a pleasantry store no
fact. Every hand-labelled message of ``remember_requests.yaml`` (``bench/remember_requests.py``
prints the rate)."""

from pathlib import Path

import pytest
import yaml

from memvault.statements import memorable_text

LABELLED = yaml.safe_load(
    (Path(__file__).parent / "remember_requests.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    ("said", "stores"), [(e["said"], e["stores"]) for e in LABELLED["stored"]], ids=repr
)
def test_a_request_to_remember_keeps_its_fact(said, stores):
    assert memorable_text(said) == stores


@pytest.mark.parametrize(
    ("said", "kind"), [(e["said"], e["kind"]) for e in LABELLED["not_stored"]], ids=repr
)
def test_a_message_that_states_no_fact_keeps_nothing(said, kind):
    assert memorable_text(said) is None, kind


def test_the_labelled_set_has_forty_messages_each_way():
    assert len(LABELLED["stored"]) >= 40 and len(LABELLED["not_stored"]) >= 40
