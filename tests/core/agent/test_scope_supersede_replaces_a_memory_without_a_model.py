"""``MemoryScope.supersede(old_key, new_text, at=)`` replaces a memory without any model: the
new text holds from ``at``, the old memory is closed then and linked to it; a key that holds
no current memory is an ItemNotFoundError, a text that says what the memory says an
InvalidArgumentError, and nothing is written for either."""

import asyncio
from datetime import datetime, timezone

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidArgumentError, ItemNotFoundError
from memvault.testing import FakeClock

LISBON, PORTO = "The user lives in Lisbon.", "The user lives in Porto."
MARCH = datetime(2023, 3, 1, tzinfo=timezone.utc)
JUNE = datetime(2023, 6, 2, tzinfo=timezone.utc)
JULY = datetime(2023, 7, 1, tzinfo=timezone.utc)


@pytest.fixture
def scope():
    clock = FakeClock(MARCH.timestamp())  # memories remembered now hold from 1 March 2023
    store = MemoryStore(
        embedder=HashingEmbedder(dim=256), backend=InMemoryBackend(), clock=clock.time
    )
    return AgentMemory(store).scope(user_id="alice")


def test_the_new_text_holds_from_at_and_the_old_memory_until_then(scope):
    lisbon = scope.remember(LISBON)
    change = scope.supersede(lisbon.key, PORTO, at=JUNE)

    assert change.event == "supersede" and change.before == LISBON
    assert (change.item.text, change.item.valid_from) == (PORTO, JUNE.timestamp())
    assert change.item.value["supersedes"] == lisbon.key
    assert change.replaced.key == lisbon.key
    assert change.replaced.valid_to == JUNE.timestamp()
    assert change.replaced.value["superseded_by"] == change.item.key
    assert [item.text for item in scope.list(as_of=JULY)] == [PORTO]


def test_the_async_twin_does_the_same(scope):
    lisbon = scope.remember(LISBON)
    change = asyncio.run(scope.asupersede(lisbon.key, PORTO, at=JUNE))
    assert change.event == "supersede" and change.replaced.valid_to == JUNE.timestamp()


def test_at_before_the_old_memory_began_closes_it_just_after(scope):
    lisbon = scope.remember(LISBON)
    change = scope.supersede(lisbon.key, PORTO, at=datetime(2023, 1, 1))
    assert lisbon.valid_from < change.replaced.valid_to <= lisbon.valid_from + 0.01


@pytest.mark.parametrize("key", ["mem-unknown", "", None])
def test_a_key_of_no_memory_is_item_not_found_and_writes_nothing(scope, key):
    scope.remember(LISBON)
    with pytest.raises(ItemNotFoundError, match="no current memory has the key"):
        scope.supersede(key, PORTO)
    assert [item.text for item in scope.list()] == [LISBON]


def test_a_memory_closed_already_is_item_not_found(scope):
    lisbon = scope.remember(LISBON)
    scope.supersede(lisbon.key, PORTO, at=JUNE)
    with pytest.raises(ItemNotFoundError, match="closed already"):
        scope.supersede(lisbon.key, "The user lives in Faro.")
    assert [item.text for item in scope.list(as_of=JULY)] == [PORTO]


def test_a_text_saying_what_the_memory_says_is_refused(scope):
    lisbon = scope.remember(LISBON)
    with pytest.raises(InvalidArgumentError, match="says what the memory"):
        scope.supersede(lisbon.key, "the user lives in Lisbon")
    assert [(item.text, item.valid_to) for item in scope.list()] == [(LISBON, None)]


def test_a_bad_at_is_refused_naming_it(scope):
    lisbon = scope.remember(LISBON)
    with pytest.raises(InvalidArgumentError, match="at"):
        scope.supersede(lisbon.key, PORTO, at="June")
    assert [item.text for item in scope.list()] == [LISBON]
