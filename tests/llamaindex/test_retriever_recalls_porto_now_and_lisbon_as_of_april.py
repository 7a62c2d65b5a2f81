"""MemvaultRetriever after a move: what holds now by default, what held then with ``as_of``."""

import pytest
from llama_index.memory.memvault import MemvaultRetriever

from memvault import InvalidArgumentError
from tests.llamaindex.moves import APRIL, JUNE, MARCH, moved_from_lisbon_to_porto

QUESTION = "Where do I live?"


def texts(nodes):
    return [node.node.text for node in nodes]


async def test_now_porto_only_and_as_of_april_lisbon_only(store):
    moved_from_lisbon_to_porto(store, ("users", "alice"))

    now = MemvaultRetriever(store, user_id="alice").retrieve(QUESTION)
    assert texts(now) == ["I moved to Porto."]
    assert now[0].node.metadata["valid_from"] == JUNE.timestamp()
    assert now[0].node.metadata["valid_to"] is None
    assert now[0].node.metadata["supersedes"] == "lisbon"

    april = MemvaultRetriever(store, user_id="alice", as_of=APRIL)
    then = april.retrieve(QUESTION)
    assert texts(then) == ["I live in Lisbon."]
    assert then[0].node.metadata["valid_from"] == MARCH.timestamp()
    assert then[0].node.metadata["valid_to"] == JUNE.timestamp()
    assert then[0].node.metadata["superseded_by"] == "porto"
    assert texts(await april.aretrieve(QUESTION)) == ["I live in Lisbon."]
    assert april.as_of == APRIL.timestamp()


def test_a_bad_as_of_is_refused_naming_it(store):
    for bad in ("2023-04-15", -1, True):
        with pytest.raises(InvalidArgumentError, match="as_of"):
            MemvaultRetriever(store, user_id="alice", as_of=bad)
