"""start_ttl_sweeper / stop_ttl_sweeper / sweep_ttl delete expired items as LangGraph's stores.

memvault already hides expired items from every read; sweeping frees their space. What is
still on disk is seen through the backend's ``scan(now=None)``, which lists expired records too.
"""

import threading
import time

from langchain_memvault import MemvaultLangGraphStore

from tests.langchain.fakes import small_store

INTERVAL = 0.002  # minutes: 0.12 s


def stored_keys(core):
    return sorted(record.key for record in core.backend.scan((), now=None))


def test_the_sweeper_deletes_expired_items_until_stopped():
    core = small_store()
    store = MemvaultLangGraphStore(core, ttl={"default_ttl": INTERVAL})
    store.put(("t",), "brief", {"v": 1})
    store.put(("t",), "kept", {"v": 2}, ttl=None)
    future = store.start_ttl_sweeper(sweep_interval_minutes=INTERVAL)
    store.start_ttl_sweeper()  # already running: starts no second sweeper
    assert [t.name for t in threading.enumerate()].count("memvault-ttl-sweeper") == 1
    deadline = time.monotonic() + 3
    while stored_keys(core) != ["kept"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stored_keys(core) == ["kept"]
    assert store.stop_ttl_sweeper(timeout=2) is True
    assert future.result(timeout=1) is None
    assert store.stop_ttl_sweeper() is True  # stopping twice is fine


def test_sweep_ttl_counts_what_it_deleted_and_no_ttl_config_starts_nothing():
    core = small_store()
    store = MemvaultLangGraphStore(core)
    store.put(("t",), "brief", {"v": 1}, ttl=0.001)
    time.sleep(0.1)
    assert stored_keys(core) == ["brief"] and store.get(("t",), "brief") is None
    assert store.sweep_ttl() == 1
    assert stored_keys(core) == [] and store.sweep_ttl() == 0
    assert store.start_ttl_sweeper().done()  # as SqliteStore: no ttl_config, no sweeper
    assert store.stop_ttl_sweeper() is True
