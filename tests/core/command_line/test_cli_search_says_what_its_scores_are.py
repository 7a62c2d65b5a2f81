"""`memvault search` says which score it prints and on what scale (issue 29, finding 7): a
hybrid score of 1.000 read as a perfect match when it only ranks first among what was found."""

from memvault.items import SCORE_SCALES
from tests.core.cli import EXAMPLE, cli, cli_json


def test_each_mode_names_its_score_on_stderr(tmp_path):
    store = tmp_path / "store"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    for mode, kind in (("hybrid", "hybrid"), ("dense", "cosine"), ("lexical", "bm25")):
        result = cli("search", "peanuts", "-n", "users/alice", "--mode", mode, store=store)
        assert result.stdout.startswith(" 1. ")
        assert result.stderr == f"score: {kind}, {SCORE_SCALES[kind]}\n"
    assert "from 0 to 1 within one search" in SCORE_SCALES["hybrid"]


def test_json_says_it_in_each_item_and_nothing_on_stderr(tmp_path):
    store = tmp_path / "store"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    result = cli("search", "peanuts", "-n", "users/alice", "--json", store=store)
    assert result.stderr == ""
    found = cli_json("search", "peanuts", "-n", "users/alice", "--mode", "dense", store=store)
    assert {item["score_type"] for item in found} == {"cosine"}
