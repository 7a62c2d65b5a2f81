"""Every async twin is a coroutine function with its sync form's signature and documentation.

``inspect.signature`` (what editors and LangChain's tool schemas read) shows the sync form's
parameters and return annotation; mypy sees the same through ``ParamSpec`` (``uv run mypy``).
"""

import asyncio
import inspect

import pytest

from memvault import AgentMemory, MemoryScope, MemoryStore

TWINS = [
    (cls, name)
    for cls in (MemoryStore, AgentMemory, MemoryScope)
    for name in sorted(vars(cls))
    if name.startswith("a") and name[1:] in vars(cls) and callable(vars(cls)[name])
]


def test_the_store_the_memory_and_the_scope_have_twins():
    names = {name for cls, name in TWINS if cls is MemoryStore}
    assert {"aput", "aput_many", "aget", "adelete", "asearch", "alist_namespaces"} <= names
    assert {"acount", "acleanup", "aexport_jsonl", "aimport_jsonl", "ahistory"} <= names
    assert any(cls is MemoryScope for cls, _ in TWINS)


@pytest.mark.parametrize(("cls", "name"), TWINS, ids=[f"{c.__name__}.{n}" for c, n in TWINS])
def test_a_twin_has_the_signature_of_its_sync_form(cls, name):
    twin, sync = getattr(cls, name), getattr(cls, name[1:])
    assert asyncio.iscoroutinefunction(twin), name
    assert inspect.signature(twin) == inspect.signature(sync)
    assert f":meth:`{name[1:]}`" in twin.__doc__
