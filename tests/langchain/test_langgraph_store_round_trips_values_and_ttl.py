"""What MemvaultLangGraphStore keeps: exact values, chosen index fields, TTL in minutes."""

import json

import pytest
from langchain_memvault import MemvaultLangGraphStore

from memvault import InvalidArgumentError
from memvault.errors import InvalidFilterError, InvalidValueError
from tests.langchain.fakes import small_store

AWKWARD = {
    "text": 42,  # a LangGraph value's own "text" need not be a string
    "lg~note": "looks like the reserved prefix",
    "title": "Trip to Porto",
    "meta": {"lang": "pt", "a.b": True, "nested": {"depth": 3}},
    "tags": ["travel", "food"],
    "missing": None,
    "ratio": 0.5,
    "emoji": "café ☕",
    "context": "memvault embeds a value's context: this one is escaped",
}


def test_any_json_value_reads_back_exactly_through_get_and_search(tmp_path):
    core = small_store(tmp_path)
    store = MemvaultLangGraphStore(core)
    store.put(("trips",), "porto", AWKWARD)
    core.close()

    reopened = MemvaultLangGraphStore(small_store(tmp_path))
    got = reopened.get(("trips",), "porto")
    assert got.value == AWKWARD
    assert json.dumps(got.value) == json.dumps(AWKWARD)  # same key order too
    assert reopened.search(("trips",), query="Porto")[0].value == AWKWARD
    assert got.created_at.tzinfo is not None and got.created_at <= got.updated_at


def test_filters_reach_nested_and_reserved_looking_fields():
    store = MemvaultLangGraphStore(small_store())
    store.put(("trips",), "porto", AWKWARD)
    store.put(("trips",), "rome", {"title": "Rome", "text": 7, "meta": {"lang": "it"}})
    for filter in [
        {"text": 42},
        {"context": AWKWARD["context"]},
        {"lg~note": "looks like the reserved prefix"},
        {"meta": {"a.b": True}},
        {"meta": {"nested": {"depth": {"$gte": 3}}}},
        {"meta": {"lang": {"$in": ["pt", "es"]}}},
    ]:
        assert [i.key for i in store.search(("trips",), filter=filter)] == ["porto"], filter
    with pytest.raises(InvalidFilterError, match="tags"):
        store.search(("trips",), filter={"tags": ["travel", "food"]})


def test_index_fields_choose_what_is_embedded():
    core = small_store()
    store = MemvaultLangGraphStore(core, index={"fields": ["title"]})
    store.put(("trips",), "porto", AWKWARD)
    store.put(("trips",), "rome", {"title": "Rome", "body": "pasta"}, index=["title", "body"])
    store.put(("trips",), "lisbon", {"title": "Lisbon", "body": "tiles"}, index=["$"])
    store.put(("trips",), "oslo", {"title": "Oslo"}, index=False)
    porto = core.get(("trips",), "porto").value
    assert porto["text"] == "Trip to Porto" and "context" not in porto  # context not embedded
    assert core.get(("trips",), "rome").text == "Rome\npasta"
    assert core.get(("trips",), "lisbon").text == '{"body": "tiles", "title": "Lisbon"}'
    assert core.get(("trips",), "oslo").text == "oslo"  # not indexed: only its key is embedded
    assert store.search(("trips",), query="pasta", limit=1)[0].key == "rome"


def test_memvault_memories_are_visible_as_their_plain_values():
    core = small_store()
    core.put(("users", "ada"), "tea", {"text": "Ada drinks green tea.", "kind": "fact"})
    store = MemvaultLangGraphStore(core)
    assert store.get(("users", "ada"), "tea").value == {
        "text": "Ada drinks green tea.",
        "kind": "fact",
    }
    assert [i.key for i in store.search(("users",), filter={"kind": "fact"})] == ["tea"]


async def test_ttl_is_taken_in_minutes_and_bad_values_are_typed_errors():
    core = small_store(ttl=3600)  # a memvault default: LangGraph's ttl=None still never expires
    store = MemvaultLangGraphStore(core)
    store.put(("s",), "short", {"v": 1}, ttl=0.5)
    await store.aput(("s",), "never", {"v": 2}, ttl=None)
    short = core.get(("s",), "short")
    assert short.expires_at - short.updated_at == pytest.approx(30.0)
    assert core.get(("s",), "never").expires_at is None
    with pytest.raises(InvalidArgumentError, match="MINUTES"):
        store.put(("s",), "bad", {"v": 3}, ttl=-1)
    with pytest.raises(InvalidValueError, match="JSON"):
        store.put(("s",), "bad", {"v": {1, 2}})
    assert sorted(i.key for i in await store.asearch(("s",))) == ["never", "short"]
