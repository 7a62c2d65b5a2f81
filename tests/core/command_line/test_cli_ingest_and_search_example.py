"""The README's first commands, in a fresh process: ingest the example conversation, then find
the right turn."""

import pytest

from memvault.conversations import source_id
from tests.core.cli import EXAMPLE, memvault, memvault_json

pytestmark = pytest.mark.slow


def test_ingest_then_search_puts_the_right_turn_first(tmp_path):
    store = tmp_path / "store"
    ingested = memvault_json("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    source = source_id(EXAMPLE)
    assert ingested == {
        "ingested": 10,
        "namespace": "users/alice",
        "source": source,
        "kept": [],
        "forgotten": [],
    }

    hits = memvault_json(
        "search", "any allergies I should know about?", "-n", "users/alice", "-k", "3", store=store
    )
    assert hits[0]["key"] == f"{source}:5"
    assert (
        hits[0]["value"]["text"]
        == "Maya is allergic to peanuts, so we have to be careful with sauces."
    )
    assert hits[0]["value"]["speaker"] == "user" and hits[0]["namespace"] == "users/alice"
    for hit in hits:  # who said each turn is its provenance
        assert hit["provenance"] == {"origin": hit["value"]["speaker"], "session": None}

    text = memvault("search", "how much can we spend per day", "-n", "users", store=store).stdout
    assert text.splitlines()[0].endswith(
        "Our budget is about 150 euros a day each, hotels included. (since 2026-03-02) [user]"
    )
