"""`MemvaultKVStore.mset` (and `amset`) with a key given twice keeps its last value, as
LangChain's `BaseStore.mset` sets each pair in turn, while `MemoryStore.put_many` refuses such
a batch (issue 29)."""

from langchain_core.stores import InMemoryStore
from langchain_memvault import MemvaultKVStore

from tests.langchain.fakes import small_store

PAIRS = [("tea", {"text": "first"}), ("cat", {"text": "Pixel"}), ("tea", {"text": "second"})]


def test_mset_keeps_the_last_value_as_langchain_does():
    kv = MemvaultKVStore(small_store(), ("users", "ada", "kv"))
    reference = InMemoryStore()

    kv.mset(PAIRS)
    reference.mset(PAIRS)

    assert kv.mget(["tea", "cat"]) == reference.mget(["tea", "cat"])
    assert kv.mget(["tea"]) == [{"text": "second"}]


async def test_amset_keeps_the_last_value():
    kv = MemvaultKVStore(small_store(), ("users", "ada", "kv"))

    await kv.amset(PAIRS)

    assert await kv.amget(["tea", "cat"]) == [{"text": "second"}, {"text": "Pixel"}]
