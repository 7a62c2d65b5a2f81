"""MemvaultKVStore: a memory closed by a correction is still a key of the store; ``mget``
returns it and ``yield_keys`` lists it, though recall leaves it out."""

from langchain_memvault import MemvaultKVStore

from tests.langchain.fakes import moved_from_lisbon_to_porto, small_store

ADA = ("users", "ada")


async def test_closed_and_current_keys_are_both_listed_and_read():
    store = small_store()
    moved_from_lisbon_to_porto(store, ADA)
    kv = MemvaultKVStore(store, ADA)

    assert sorted(kv.yield_keys()) == ["lisbon", "porto"]
    assert sorted([key async for key in kv.ayield_keys(prefix="l")]) == ["lisbon"]
    assert kv.mget(["lisbon"]) == [{"text": "I live in Lisbon.", "superseded_by": "porto"}]
    assert [item.key for item in store.search(ADA)] == ["porto"]
