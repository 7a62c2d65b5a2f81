"""ttl= is LangGraph's TTLConfig: default TTL, refresh_ttl default, typed errors on misuse.

Refreshing is seen on the memvault item's ``expires_at`` (seconds), which moves on a refreshing
read and stays put otherwise; ``created_at``, ``updated_at`` and the value do not change.
"""

import time

import pytest
from langchain_memvault import MemvaultLangGraphStore
from langgraph.store.base import PutOp

from memvault import InvalidArgumentError
from tests.langchain.fakes import small_store

NS = ("t",)


def test_refresh_ttl_defaults_to_refresh_on_read_and_a_call_overrides_it():
    core = small_store()
    store = MemvaultLangGraphStore(core, ttl={"default_ttl": 0.05, "refresh_on_read": False})
    for key in ("a", "b", "c", "d"):
        store.put(NS, key, {"key": key})
    before = {key: core.get(NS, key) for key in "abcd"}
    assert before["a"].expires_at - before["a"].updated_at == pytest.approx(3.0)  # 0.05 min
    time.sleep(0.1)
    store.get(NS, "a")  # refresh_on_read=False
    store.get(NS, "b", refresh_ttl=True)
    store.search(NS, filter={"key": "c"}, refresh_ttl=True)
    store.search(NS, filter={"key": "d"})
    after = {key: core.get(NS, key) for key in "abcd"}
    moved = {key: after[key].expires_at - before[key].expires_at for key in "abcd"}
    assert moved["a"] == moved["d"] == 0
    assert 0.09 < moved["b"] < 1 and 0.09 < moved["c"] < 1
    for key in "abcd":
        assert after[key].value == before[key].value
        assert (after[key].created_at, after[key].updated_at) == (
            before[key].created_at,
            before[key].updated_at,
        )
    assert store.get(NS, "b").value == {"key": "b"}


def test_without_ttl_config_reads_refresh_explicit_ttls_and_none_never_expires():
    core = small_store()
    store = MemvaultLangGraphStore(core)
    assert store.ttl_config is None
    store.put(NS, "short", {"v": 1}, ttl=0.05)
    store.put(NS, "plain", {"v": 2})
    first = core.get(NS, "short").expires_at
    time.sleep(0.1)
    store.get(NS, "short")  # BaseStore's refresh_ttl default is True
    assert core.get(NS, "short").expires_at > first + 0.09
    assert core.get(NS, "plain").expires_at is None


def test_the_memvault_store_ttl_is_the_default_when_no_ttl_config_is_given():
    core = small_store(ttl=120)  # seconds
    store = MemvaultLangGraphStore(core)
    assert store.ttl_config == {"default_ttl": 2.0}  # minutes
    store.put(NS, "default", {"v": 1})
    store.put(NS, "never", {"v": 2}, ttl=None)
    store.batch([PutOp(NS, "by_hand", {"v": 3})])  # PutOp's own default, ttl=None: never
    item = core.get(NS, "default")
    assert item.expires_at - item.updated_at == pytest.approx(120)
    assert core.get(NS, "never").expires_at is None
    assert core.get(NS, "by_hand").expires_at is None


@pytest.mark.parametrize(
    ("ttl", "match"),
    [
        (3600, "TTLConfig dict"),
        ({"default_ttl": 60, "refresh": True}, "unknown keys \\['refresh'\\]"),
        ({"default_ttl": 0}, "default_ttl.*MINUTES"),
        ({"sweep_interval_minutes": "5"}, "sweep_interval_minutes.*MINUTES"),
        ({"refresh_on_read": "yes"}, "refresh_on_read"),
        ({"omit_expired": False}, "never returns expired items"),
    ],
)
def test_a_bad_ttl_config_is_refused_naming_the_field(ttl, match):
    with pytest.raises(InvalidArgumentError, match=match):
        MemvaultLangGraphStore(small_store(), ttl=ttl)


def test_a_bad_put_ttl_is_refused_in_minutes():
    store = MemvaultLangGraphStore(small_store())
    for ttl in (0, -1, float("inf"), "60"):
        with pytest.raises(InvalidArgumentError, match="MINUTES"):
            store.put(NS, "k", {"v": 1}, ttl=ttl)
    assert store.get(NS, "k") is None
