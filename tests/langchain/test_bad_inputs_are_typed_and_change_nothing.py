"""Every bad input to the LangChain adapter's entry points raises a memvault error and leaves the
store as it was (export before = export after, read by a store opened anew).

The bad values both adapters must refuse alike are the shared contract of
``tests/core/adapter_bad_inputs.py`` (user ids, namespaces, stores, k, filters, queries, tool
arguments, options, flush timeouts), each with the memvault error it must raise; this file says
which entry points of this adapter take each kind (:data:`SHARED`) and adds the cases only it has
(:data:`CASES`: ttls, the key-value store, the LangGraph store...).

Where LangChain or LangGraph own the schema, their own validation error is the documented
answer: a tool's arguments (``args_schema``, checked by ``BaseTool.invoke``) and the retriever's
fields raise ``pydantic.ValidationError``; namespace labels LangGraph forbids raise
``langgraph.store.base.InvalidNamespaceError`` (see the adapter's README).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from pathlib import Path

import pytest
from langchain_memvault import (
    MemoryMiddleware,
    MemoryTool,
    MemvaultKVStore,
    MemvaultLangGraphStore,
    MemvaultRetriever,
    RememberTool,
    create_memory_tools,
)
from langgraph.store.base import InvalidNamespaceError as LangGraphNamespaceError
from pydantic import ValidationError

from memvault import AgentMemory, MemoryStore, MemvaultError
from tests.core.adapter_bad_inputs import (
    ABSENT,
    FILTERS,
    KS,
    NAMESPACES,
    OPTIONS,
    PREFIXES,
    QUERIES,
    REMEMBER_INPUTS,
    STORES,
    TIMEOUTS,
    TOOL_CALLS,
    USER_IDS,
    WITH_A_MEMORY,
    EntryPoint,
    cases,
)
from tests.core.bad_inputs import (
    BIG,
    DEEP,
    copy_of,
    exported,
    nested,
    open_store,
    prefilled_store,
    reopened_export,
)

FIVE_THOUSAND = ("a",) * 5000


def run_as(user_id) -> dict | None:
    """The run's config with ``user_id``; ``None`` (no config at all) for ABSENT."""
    return None if user_id is ABSENT else {"configurable": {"user_id": user_id}}


ALICE = run_as("alice")


def deep_filter(depth: int) -> dict:
    outer: dict = {}
    inner = outer
    for _ in range(depth):
        inner["a"] = {}
        inner = inner["a"]
    inner["a"] = 1
    return outer


@dataclass
class Context:
    store: MemoryStore

    def tool(self, name: str):
        return {tool.name: tool for tool in create_memory_tools(self.store)}[name]

    def retriever(self):
        return MemvaultRetriever(store=self.store)

    def kv(self):
        return MemvaultKVStore(self.store, ("users", "alice"))

    def graph(self):
        return MemvaultLangGraphStore(self.store)


def tool_call(c: Context, call) -> object:
    return c.tool(call.tool).invoke(call.arguments, ALICE)


def async_tool_call(c: Context, call) -> object:
    return asyncio.run(c.tool(call.tool).ainvoke(call.arguments, ALICE))


SHARED = [
    *cases(
        USER_IDS,
        EntryPoint(
            "remember user_id",
            lambda c, user: c.tool("remember").invoke({"text": "I like tea."}, run_as(user)),
        ),
        EntryPoint("retriever user_id", lambda c, user: c.retriever().invoke("tea", run_as(user))),
        EntryPoint(
            "middleware user_id",
            lambda c, user: MemoryMiddleware(c.store).before_agent(
                {"messages": []}, None, run_as(user)
            ),
        ),
    ),
    *cases(
        NAMESPACES,
        EntryPoint("tools namespace", lambda c, ns: create_memory_tools(c.store, ns)),
        EntryPoint("middleware namespace", lambda c, ns: MemoryMiddleware(c.store, ns)),
        EntryPoint(
            "retriever namespace",
            lambda c, ns: MemvaultRetriever(store=c.store, namespace=ns),
            schema_error=ValidationError,
        ),
        EntryPoint("kv namespace", lambda c, ns: MemvaultKVStore(c.store, ns)),
    ),
    *cases(
        STORES,
        EntryPoint("tools store", lambda c, store: create_memory_tools(store)),
        EntryPoint("middleware store", lambda c, store: MemoryMiddleware(store)),
        EntryPoint(
            "retriever store",
            lambda c, store: MemvaultRetriever(store=store),
            schema_error=ValidationError,
        ),
        EntryPoint("kv store", lambda c, store: MemvaultKVStore(store, ("kv",))),
        EntryPoint("graph store", lambda c, store: MemvaultLangGraphStore(store)),
    ),
    *cases(
        PREFIXES,
        EntryPoint("tools prefix", lambda c, prefix: create_memory_tools(c.store, prefix=prefix)),
    ),
    *cases(
        WITH_A_MEMORY,
        EntryPoint(
            "tools AgentMemory and",
            lambda c, options: create_memory_tools(AgentMemory(c.store), **options),
            only=frozenset({"namespace"}),
        ),
        EntryPoint(
            "middleware AgentMemory and",
            lambda c, options: MemoryMiddleware(AgentMemory(c.store), **options),
        ),
    ),
    *cases(
        OPTIONS,
        EntryPoint("middleware", lambda c, options: MemoryMiddleware(c.store, **options)),
    ),
    *cases(
        TOOL_CALLS,
        EntryPoint(
            "",
            tool_call,
            schema_error=ValidationError,
        ),
        EntryPoint(
            "async",
            async_tool_call,
            schema_error=ValidationError,
        ),
    ),
    *cases(
        REMEMBER_INPUTS,
        EntryPoint(
            "remember positional",
            lambda c, text: c.tool("remember").invoke(text, ALICE),
            schema_error=ValidationError,
        ),
        EntryPoint(
            "aremember positional",
            lambda c, text: asyncio.run(c.tool("remember").ainvoke(text, ALICE)),
            schema_error=ValidationError,
        ),
    ),
    *cases(
        KS,
        EntryPoint("middleware k", lambda c, k: MemoryMiddleware(c.store, k=k)),
        EntryPoint(
            "retriever k",
            lambda c, k: MemvaultRetriever(store=c.store, k=k),
            schema_error=ValidationError,
        ),
        EntryPoint("retriever invoke k", lambda c, k: c.retriever().invoke("tea", ALICE, k=k)),
        EntryPoint(
            "retriever ainvoke k",
            lambda c, k: asyncio.run(c.retriever().ainvoke("tea", ALICE, k=k)),
        ),
    ),
    *cases(
        FILTERS,
        EntryPoint("middleware filter", lambda c, f: MemoryMiddleware(c.store, filter=f)),
        EntryPoint(
            "retriever filter",
            lambda c, f: MemvaultRetriever(store=c.store, filter=f),
            schema_error=ValidationError,
        ),
        EntryPoint(
            "retriever invoke filter", lambda c, f: c.retriever().invoke("tea", ALICE, filter=f)
        ),
    ),
    *cases(
        QUERIES,
        EntryPoint("retriever query", lambda c, query: c.retriever().invoke(query, ALICE)),
        EntryPoint(
            "retriever ainvoke query",
            lambda c, query: asyncio.run(c.retriever().ainvoke(query, ALICE)),
        ),
    ),
    *cases(
        TIMEOUTS,
        EntryPoint(
            "middleware flush timeout", lambda c, t: MemoryMiddleware(c.store).flush(timeout=t)
        ),
        EntryPoint(
            "middleware aflush timeout",
            lambda c, t: asyncio.run(MemoryMiddleware(c.store).aflush(timeout=t)),
        ),
        EntryPoint(
            "background middleware flush timeout",
            lambda c, t: MemoryMiddleware(c.store, background=True).flush(timeout=t),
        ),
    ),
]
"""The shared bad values (``tests/core/adapter_bad_inputs.py``) through this adapter's parts."""


def p(call, id, expected=MemvaultError, marks=()):
    return pytest.param(call, expected, id=id, marks=marks)


CASES = [
    # -- create_memory_tools and the tool classes ---------------------------------------------
    p(lambda c: create_memory_tools(c.store, ttl=-1), "tools ttl negative"),
    p(lambda c: create_memory_tools(c.store, ttl=math.inf), "tools ttl infinity"),
    p(lambda c: RememberTool(), "RememberTool without memory or store"),
    p(lambda c: RememberTool(store=c.store, memory=AgentMemory(c.store)), "RememberTool both"),
    p(lambda c: MemoryTool(store=c.store), "MemoryTool without spec"),
    # -- middleware ---------------------------------------------------------------------------
    p(lambda c: MemoryMiddleware(c.store, ttl=-1), "middleware ttl negative"),
    # -- retriever ----------------------------------------------------------------------------
    p(lambda c: MemvaultRetriever(store=c.store, search_kwargs={"fetch_k": 3}), "retriever kwarg"),
    # -- key-value store ----------------------------------------------------------------------
    p(lambda c: MemvaultKVStore(c.store, ("kv",), ttl=-1), "kv ttl negative"),
    p(lambda c: c.kv().mset([("k", {"text": "x", "n": BIG})]), "kv mset 401-digit int"),
    p(lambda c: c.kv().mset([("k", {"text": "x", "deep": DEEP})]), "kv mset nested 5,000"),
    p(lambda c: c.kv().mset([("ok", {"text": "x"}), ("bad", {"title": "x"})]), "kv no text"),
    p(lambda c: c.kv().mset([("k\udc00", {"text": "x"})]), "kv mset key surrogate"),
    p(lambda c: c.kv().mset(None), "kv mset None"),
    p(lambda c: c.kv().mset([("k",)]), "kv mset 1-tuple"),
    p(lambda c: c.kv().mget(None), "kv mget None"),
    p(lambda c: c.kv().mget([5]), "kv mget int key"),
    p(lambda c: c.kv().mdelete("tea"), "kv mdelete str"),
    p(lambda c: c.kv().mdelete([None]), "kv mdelete None key"),
    p(lambda c: list(c.kv().yield_keys(prefix=5)), "kv yield_keys prefix int"),
    p(lambda c: asyncio.run(c.kv().amset([("k", {"text": math.nan})])), "kv amset NaN text"),
    # -- LangGraph store ----------------------------------------------------------------------
    p(lambda c: MemvaultLangGraphStore(c.store, ttl={"default_ttl": -1}), "graph ttl negative"),
    p(lambda c: MemvaultLangGraphStore(c.store, ttl={"sweep": 1}), "graph ttl unknown key"),
    p(lambda c: MemvaultLangGraphStore(c.store, index={"dims": 32}), "graph index dims"),
    p(lambda c: c.graph().put(("users",), "k", {"n": BIG}), "graph put 401-digit int"),
    p(lambda c: c.graph().put(("users",), "k", {"n": DEEP}), "graph put nested 5,000"),
    p(lambda c: c.graph().put(("users",), "k", {"n": nested(31)}), "graph put nested 32"),
    p(lambda c: c.graph().put(("users",), "k", {"n": math.nan}), "graph put NaN"),
    p(lambda c: c.graph().put(("users",), "k", {"n\udc00": 1}), "graph put key surrogate"),
    p(lambda c: c.graph().put(("users",), "k", "text"), "graph put value str"),
    p(lambda c: c.graph().put(("users",), "k", {"n": 1}, ttl=-1), "graph put ttl negative"),
    p(lambda c: c.graph().put(("users",), "k", {"n": 1}, ttl=math.inf), "graph put ttl inf"),
    p(lambda c: c.graph().put(("users",), "k", {"n": 1}, index=5), "graph put index int"),
    p(lambda c: c.graph().put(FIVE_THOUSAND, "k", {"n": 1}), "graph put ns 5,000 segments"),
    p(lambda c: c.graph().search(("users",), filter={"n": math.nan}), "graph filter NaN"),
    p(lambda c: c.graph().search(("users",), filter={"n": BIG}), "graph filter big int"),
    p(lambda c: c.graph().search(("users",), filter=deep_filter(5000)), "graph filter deep"),
    p(lambda c: c.graph().search(("users",), filter={5: 1}), "graph filter int field"),
    p(lambda c: c.graph().search(("users",), limit=-1), "graph search limit negative"),
    p(lambda c: c.graph().search(("users",), query=5), "graph search query int"),
    p(lambda c: c.graph().list_namespaces(max_depth=-1), "graph list max_depth negative"),
    p(lambda c: c.graph().batch(None), "graph batch None"),
    p(lambda c: c.graph().batch([5]), "graph batch int op"),
    p(lambda c: asyncio.run(c.graph().aput(("users",), "k", {"n": BIG})), "graph aput big int"),
    p(
        lambda c: c.graph().put(("users", ""), "k", {"n": 1}),
        "graph put namespace empty label",
        expected=LangGraphNamespaceError,
    ),
]
"""The bad inputs only this adapter's parts take."""


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("template") / "store"
    prefilled_store(folder).close()
    return folder


@pytest.mark.parametrize(("bad_call", "expected"), [*SHARED, *CASES])
def test_langchain_entry_points(tmp_path, template, bad_call, expected):
    folder = copy_of(template, tmp_path / "store")
    store = open_store(folder)
    before = exported(store, tmp_path / "before.jsonl")
    try:
        with pytest.raises(expected):
            bad_call(Context(store))
    finally:
        store.close()
    assert reopened_export(folder, tmp_path / "after.jsonl") == before
