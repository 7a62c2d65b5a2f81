"""TTLs behave as on LangGraph's SqliteStore: default, never, refresh on read, sweep.

The same calls run on a ``SqliteStore`` and a ``MemvaultLangGraphStore``, interleaved, with a
2-second TTL (SQLite keeps expiries to whole seconds, so the schedule leaves a second of slack
on each side). One deliberate difference is checked too: memvault never returns an expired item,
where ``SqliteStore`` returns it until a sweep deletes it.
"""

import time

import pytest
from langchain_memvault import MemvaultLangGraphStore
from langgraph.store.sqlite import SqliteStore

from tests.langchain.fakes import small_store

TTL = 2 / 60  # minutes, LangGraph's unit: 2 seconds
CONFIG = {"default_ttl": TTL, "refresh_on_read": True}
KEYS = ("read", "never", "unread", "not_refreshed")


@pytest.mark.filterwarnings("ignore:The default datetime adapter:DeprecationWarning")
def test_default_never_refresh_and_sweep_agree_with_sqlite_store():
    ours = MemvaultLangGraphStore(small_store(), ttl=CONFIG)
    with SqliteStore.from_conn_string(":memory:", ttl=CONFIG) as sqlite:
        sqlite.setup()
        stores = (sqlite, ours)
        for store in stores:
            store.put(("t",), "read", {"v": 1})  # default_ttl
            store.put(("t",), "never", {"v": 2}, ttl=None)  # None: never, not the default
            store.put(("t",), "unread", {"v": 3})
            store.put(("t",), "not_refreshed", {"v": 4}, ttl=TTL)
            store.put(("s",), "searched", {"v": 5}, ttl=TTL)

        time.sleep(1.5)
        for store in stores:
            assert store.get(("t",), "read").value == {"v": 1}  # refresh_on_read: refreshed
            assert store.get(("t",), "not_refreshed", refresh_ttl=False).value == {"v": 4}
            assert [i.key for i in store.search(("s",))] == ["searched"]  # refreshed

        time.sleep(1.6)  # 3.1 s after the puts, 1.6 s after the reads
        # memvault hides what expired at once; SqliteStore until the sweep (deliberate)
        assert sqlite.get(("t",), "unread", refresh_ttl=False) is not None
        assert ours.get(("t",), "unread", refresh_ttl=False) is None

        swept = [store.sweep_ttl() for store in stores]
        assert swept[0] == swept[1] == 2
        alive = [
            {key: store.get(("t",), key, refresh_ttl=False) is not None for key in KEYS}
            for store in stores
        ]
        expected = {"read": True, "never": True, "unread": False, "not_refreshed": False}
        assert alive[0] == alive[1] == expected
        assert [i.key for i in ours.search(("s",))] == [i.key for i in sqlite.search(("s",))]
        assert sorted(ours.list_namespaces()) == sorted(sqlite.list_namespaces())
