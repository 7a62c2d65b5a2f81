"""The ``recall`` tool's ``as_of`` (an ISO 8601 date or date-time, read in the core) recalls
what held then, each memory dated; a value that is no such time is refused naming
``as_of`` and giving an example, before anything is searched."""

import json
from datetime import datetime, timezone

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidArgumentError
from memvault.memory_tools import run_memory_tool
from memvault.testing import FakeClock

LISBON, PORTO = "The user lives in Lisbon.", "The user lives in Porto."


@pytest.fixture
def scope():
    clock = FakeClock(datetime(2023, 3, 1, 12, tzinfo=timezone.utc).timestamp())
    store = MemoryStore(
        embedder=HashingEmbedder(dim=256), backend=InMemoryBackend(), clock=clock.time
    )
    scope = AgentMemory(store).scope(user_id="alice")
    lisbon = scope.remember(LISBON)
    clock.now = datetime(2023, 6, 2, 12, tzinfo=timezone.utc).timestamp()
    scope.supersede(lisbon.key, PORTO)
    clock.now = datetime(2023, 7, 1, tzinfo=timezone.utc).timestamp()
    return scope


def lines(said):
    return [json.loads(line) for line in said.splitlines()[2:-1]]


@pytest.mark.parametrize("as_of", ["2023-04-15", "2023-04-15T10:30:00Z", "2023-04-15 10:30+02:00"])
def test_as_of_april_recalls_lisbon_dated(scope, as_of):
    said = run_memory_tool(scope, "recall", {"query": "where does the user live", "as_of": as_of})
    assert [(line["text"], line["since"], line["until"]) for line in lines(said)] == [
        (LISBON, "2023-03-01", "2023-06-02")
    ]


def test_a_date_is_the_end_of_that_day(scope):
    said = run_memory_tool(
        scope, "recall", {"query": "where does the user live", "as_of": "2023-06-02"}
    )
    assert [line["text"] for line in lines(said)] == [PORTO]


def test_without_as_of_the_current_memory_is_recalled(scope):
    said = run_memory_tool(scope, "recall", {"query": "where does the user live"})
    assert [(line["text"], line["since"]) for line in lines(said)] == [(PORTO, "2023-06-02")]
    assert "until" not in lines(said)[0]


@pytest.mark.parametrize("as_of", ["April 2023", "2023-13-01", "1969-12-31", "", 20230415])
def test_a_value_that_is_no_time_is_refused_naming_as_of(scope, as_of):
    with pytest.raises(InvalidArgumentError, match="as_of") as refused:
        run_memory_tool(scope, "recall", {"query": "where", "as_of": as_of})
    assert "2023-04-15" in str(refused.value) or "str" in str(refused.value)
