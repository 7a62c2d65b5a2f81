"""MemvaultKVStore is a view of exactly one namespace, and what it writes is a memory."""

import pytest
from langchain_memvault import MemvaultKVStore, MemvaultRetriever

from memvault.errors import InvalidValueError
from tests.langchain.fakes import small_store


def test_keys_are_those_of_the_namespace_only_and_values_are_recallable():
    store = small_store()
    store.put(("users", "ada", "kv", "deeper"), "below", {"text": "not part of the KV store"})
    store.put(("users", "bob", "kv"), "other", {"text": "Bob's note"})
    kv = MemvaultKVStore(store, ("users", "ada", "kv"), ttl=60)
    kv.mset([(f"note-{i}", {"text": f"Ada note number {i}"}) for i in range(150)])

    keys = list(kv.yield_keys())
    assert sorted(keys) == sorted(f"note-{i}" for i in range(150))  # paged past 100
    assert sorted(kv.yield_keys(prefix="note-14")) == [
        "note-14",
        *(f"note-14{i}" for i in range(10)),
    ]
    item = store.get(("users", "ada", "kv"), "note-7")
    assert item.expires_at - item.updated_at == pytest.approx(60)

    docs = MemvaultRetriever(store=store, namespace=("users", "ada", "kv"), k=1).invoke(
        "Ada note number 42"
    )
    assert docs[0].page_content == "Ada note number 42"


async def test_values_without_text_are_refused_and_nothing_is_written():
    kv = MemvaultKVStore(small_store(), ("kv",))
    with pytest.raises(InvalidValueError, match=r'value\["text"\]'):
        await kv.amset([("ok", {"text": "fine"}), ("bad", {"title": "no text"})])
    assert await kv.amget(["ok", "bad"]) == [None, None]
    assert [key async for key in kv.ayield_keys()] == []
