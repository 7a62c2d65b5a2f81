"""Misusing the background worker fails at once with a typed error instead of hanging or losing
the turn: ``flush()`` from inside a turn's work (the model), a save on a closed store."""

import pytest

from memvault import FactExtractor, InvalidArgumentError
from memvault.errors import StoreClosedError
from tests.core.memory_fixtures import hashing_memory

TURN = [{"role": "user", "content": "I am allergic to kiwi."}]


def test_flush_from_inside_the_worker_is_refused_not_a_hang():
    seen = []

    def model(messages):
        try:
            memory.flush()
        except InvalidArgumentError as error:
            seen.append(str(error))
        return '{"facts": ["The user is allergic to kiwi."]}'

    memory = hashing_memory(extractor=FactExtractor(model), background=True)
    memory.scope(user_id="alice").save_turns(TURN)

    assert memory.flush(timeout=10)
    assert len(seen) == 1 and "from the background worker itself" in seen[0]
    assert [i.text for i in memory.scope(user_id="alice").list()] == [
        "The user is allergic to kiwi."
    ]


def test_a_background_save_on_a_closed_store_raises_in_the_caller():
    memory = hashing_memory(background=True)
    memory.store.close()
    with pytest.raises(StoreClosedError):
        memory.scope(user_id="alice").save_turns(TURN)
    assert memory.ingestion.failures == 0
