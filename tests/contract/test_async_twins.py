"""Every operation has an async twin that runs off the event loop; sync calls work in a loop."""

import asyncio

from memvault import MemoryStore

NS = ("users", "alice")


async def test_async_twins_give_the_sync_results(store, tmp_path):
    await store.aput(NS, "tea", {"text": "alice drinks tea"})
    await store.aput_many(NS, [("dog", {"text": "alice has a dog"})])
    assert (await store.aget(NS, "tea")).text == "alice drinks tea"
    assert [i.key for i in await store.asearch(NS, query="a dog")][0] == "dog"
    assert await store.alist_namespaces() == [NS]
    assert await store.acount() == 2
    assert await store.aexport_jsonl(tmp_path / "x.jsonl") == 2
    await store.adelete(NS, "tea")
    assert await store.aget(NS, "tea") is None
    assert await store.acleanup() == 0
    assert await store.aimport_jsonl(tmp_path / "x.jsonl") == 2


async def test_async_calls_do_not_block_the_event_loop(store):
    slow_embed = store.embedder.embed_documents

    def embed_slowly(texts):
        import time

        time.sleep(0.3)
        return slow_embed(texts)

    store.embedder.embed_documents = embed_slowly
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    await store.aput(NS, "k", {"text": "x"})
    task.cancel()
    assert ticks >= 10  # the loop kept running while the put embedded


async def test_sync_forms_work_inside_a_running_loop(store):
    store.put(NS, "k", {"text": "inside a loop"})
    assert store.get(NS, "k").text == "inside a loop"


def test_async_twins_are_documented():
    for name in [
        "aput",
        "aput_many",
        "aget",
        "adelete",
        "asearch",
        "alist_namespaces",
        "acount",
        "acleanup",
        "aexport_jsonl",
        "aimport_jsonl",
    ]:
        method = getattr(MemoryStore, name)
        assert asyncio.iscoroutinefunction(method), name
        assert f":meth:`{name[1:]}`" in method.__doc__
