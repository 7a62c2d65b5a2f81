"""`memvault search --as-of DATE` (and `list --as-of`) find what held then: a memory
superseded since, its line ending with when it held; without it, what holds now, each line
ending with since when; `get` shows the same. A DATE that is no ISO 8601 date or date-time is
a usage error: one line, exit status 2, nothing searched."""

from datetime import datetime

import pytest

from memvault import MemoryStore
from tests.core.cli import cli

ADA = ("users", "ada")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("as-of") / "store"
    with MemoryStore(folder) as store:
        march, june = datetime(2023, 3, 1, 9), datetime(2023, 6, 2, 9)
        store.put(ADA, "lisbon", {"text": "Ada lives in Lisbon."}, valid_from=march)
        store.put(ADA, "porto", {"text": "Ada lives in Porto."}, valid_from=june)
        store.supersede(ADA, "lisbon", by="porto")
    return folder


def lines(*args, store):
    return [line.split("] ", 1)[1] for line in cli(*args, store=store).stdout.splitlines()]


def test_search_finds_what_holds_now_or_what_held_then(store):
    query = ("search", "where does Ada live", "-n", "users/ada")
    assert lines(*query, store=store) == ["Ada lives in Porto. (since 2023-06-02)"]
    assert lines(*query, "--as-of", "2023-04-15", store=store) == [
        "Ada lives in Lisbon. (2023-03-01 – 2023-06-02)"
    ]
    assert lines(*query, "--as-of", "2023-06-02T10:00:00Z", store=store) == [
        "Ada lives in Porto. (since 2023-06-02)"
    ]


def test_list_and_get_say_when_each_memory_holds(store):
    assert lines("list", "--as-of", "2023-04-15", store=store) == [
        "Ada lives in Lisbon. (2023-03-01 – 2023-06-02)"
    ]
    assert lines("get", "lisbon", "-n", "users/ada", store=store) == [
        "Ada lives in Lisbon. (2023-03-01 – 2023-06-02)"
    ]


@pytest.mark.parametrize("date", ["April 2023", "2023-02-30", "1900-01-01"])
def test_a_date_that_is_no_iso_time_is_a_one_line_usage_error(store, date):
    result = cli("search", "Ada", "--as-of", date, store=store, check=False)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("error: invalid value for '--as-of': must be ") and "2023-04-15" in line
