"""Every async twin of MemoryStore is a coroutine function documented as its sync form's twin."""

import asyncio

from memvault import MemoryStore


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
