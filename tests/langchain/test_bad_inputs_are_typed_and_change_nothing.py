"""Every bad input to the LangChain adapter's entry points raises a memvault error and leaves the
store as it was (export before = export after, read by a store opened anew).

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

ALICE = {"configurable": {"user_id": "alice"}}
FIVE_THOUSAND = ("a",) * 5000
SCHEMA = {"expected": ValidationError}  # the framework's own validation, documented


def run_as(user_id) -> dict:
    return {"configurable": {"user_id": user_id}}


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


def p(call, id, expected=MemvaultError, marks=()):
    return pytest.param(call, expected, id=id, marks=marks)


CASES = [
    # -- create_memory_tools and the tool classes ---------------------------------------------
    p(lambda c: create_memory_tools(c.store, namespace="users"), "tools namespace str"),
    p(lambda c: create_memory_tools(c.store, FIVE_THOUSAND), "tools namespace 5,000 segments"),
    p(lambda c: create_memory_tools(c.store, ("users", "")), "tools namespace empty segment"),
    p(lambda c: create_memory_tools(5), "tools store int"),
    p(lambda c: create_memory_tools(c.store, prefix="org tools"), "tools prefix with a space"),
    p(lambda c: create_memory_tools(c.store, ttl=-1), "tools ttl negative"),
    p(lambda c: create_memory_tools(c.store, ttl=math.inf), "tools ttl infinity"),
    p(lambda c: create_memory_tools(AgentMemory(c.store), namespace=("x",)), "tools ns + memory"),
    p(lambda c: RememberTool(), "RememberTool without memory or store"),
    p(lambda c: RememberTool(store=c.store, memory=AgentMemory(c.store)), "RememberTool both"),
    p(lambda c: MemoryTool(store=c.store), "MemoryTool without spec"),
    # -- tool calls ---------------------------------------------------------------------------
    p(lambda c: c.tool("remember").invoke({"text": "I like tea."}), "remember without user"),
    p(lambda c: c.tool("remember").invoke({"text": "I like tea."}, run_as(5)), "user_id int"),
    p(lambda c: c.tool("remember").invoke({"text": "I like tea."}, run_as("")), "user_id empty"),
    p(lambda c: c.tool("remember").invoke({"text": "x"}, run_as("a" * 300)), "user_id 300 chars"),
    p(lambda c: c.tool("remember").invoke({"text": "x"}, run_as("a\udc00")), "user_id surrogate"),
    p(lambda c: c.tool("remember").invoke({"text": "   "}, ALICE), "remember blank"),
    p(lambda c: c.tool("remember").invoke("...", ALICE), "remember string input without words"),
    p(lambda c: c.tool("forget").invoke({"memory": "  "}, ALICE), "forget blank"),
    p(lambda c: asyncio.run(c.tool("remember").ainvoke({"text": " "}, ALICE)), "aremember blank"),
    p(
        lambda c: c.tool("remember").invoke({"text": "I like tea\udc00"}, ALICE),
        "remember lone surrogate",
        **SCHEMA,
    ),
    p(lambda c: c.tool("remember").invoke({"txt": "tea"}, ALICE), "remember wrong name", **SCHEMA),
    p(lambda c: c.tool("remember").invoke({"text": 5}, ALICE), "remember text int", **SCHEMA),
    p(lambda c: c.tool("recall").invoke({"query": "x", "limit": 0}, ALICE), "limit 0", **SCHEMA),
    p(lambda c: c.tool("recall").invoke({"query": "x", "limit": 51}, ALICE), "limit 51", **SCHEMA),
    p(lambda c: c.tool("list_memories").invoke({"offset": -1}, ALICE), "offset -1", **SCHEMA),
    p(lambda c: c.tool("forget").invoke({"memory": ""}, ALICE), "forget empty", **SCHEMA),
    p(lambda c: c.tool("recall").invoke({"query": "t\udc00"}, ALICE), "recall surrogate", **SCHEMA),
    # -- middleware ---------------------------------------------------------------------------
    p(lambda c: MemoryMiddleware(c.store, "users"), "middleware namespace str"),
    p(lambda c: MemoryMiddleware(c.store, FIVE_THOUSAND), "middleware namespace 5,000"),
    p(lambda c: MemoryMiddleware(c.store, k=0), "middleware k 0"),
    p(lambda c: MemoryMiddleware(c.store, k="5"), "middleware k str"),
    p(lambda c: MemoryMiddleware(c.store, ttl=-1), "middleware ttl negative"),
    p(lambda c: MemoryMiddleware(c.store, header=5), "middleware header int"),
    p(lambda c: MemoryMiddleware(c.store, name="my memory"), "middleware name with a space"),
    p(lambda c: MemoryMiddleware(c.store, filter={"n": math.nan}), "middleware filter NaN"),
    p(lambda c: MemoryMiddleware(c.store, filter={"n": BIG}), "middleware filter big int"),
    p(lambda c: MemoryMiddleware(c.store, extractor="gpt"), "middleware extractor str"),
    p(lambda c: MemoryMiddleware(AgentMemory(c.store), k=3), "middleware memory and k"),
    p(lambda c: MemoryMiddleware("./memories"), "middleware store is a path"),
    p(lambda c: MemoryMiddleware(c.store, background="on"), "middleware background str"),
    p(
        lambda c: MemoryMiddleware(AgentMemory(c.store), background=True),
        "middleware memory and background",
    ),
    p(lambda c: MemoryMiddleware(c.store).flush(timeout=-1), "middleware flush timeout negative"),
    p(
        lambda c: MemoryMiddleware(c.store, background=True).flush(timeout="soon"),
        "middleware flush timeout str",
    ),
    p(
        lambda c: asyncio.run(MemoryMiddleware(c.store).aflush(timeout=math.inf)),
        "middleware aflush timeout infinity",
    ),
    # -- retriever ----------------------------------------------------------------------------
    p(lambda c: MemvaultRetriever(store=c.store, k=0), "retriever k 0"),
    p(lambda c: MemvaultRetriever(store=c.store, namespace=FIVE_THOUSAND), "retriever ns 5,000"),
    p(lambda c: MemvaultRetriever(store=c.store, search_kwargs={"fetch_k": 3}), "retriever kwarg"),
    p(lambda c: MemvaultRetriever(store=c.store, filter={"n": {"$gt": BIG}}), "retriever filter"),
    p(lambda c: c.retriever().invoke("tea"), "retriever without user"),
    p(lambda c: c.retriever().invoke("tea", ALICE, k=0), "retriever invoke k 0"),
    p(lambda c: c.retriever().invoke("tea", ALICE, filter={"n": BIG}), "retriever invoke filter"),
    p(lambda c: c.retriever().invoke(5, ALICE), "retriever query int"),
    p(lambda c: c.retriever().invoke("tea\udc00", ALICE), "retriever query surrogate"),
    p(lambda c: asyncio.run(c.retriever().ainvoke("tea", ALICE, k=-1)), "retriever ainvoke k"),
    p(lambda c: MemvaultRetriever(store=c.store, namespace="users"), "retriever ns str", **SCHEMA),
    p(lambda c: MemvaultRetriever(store="./memories"), "retriever store str", **SCHEMA),
    # -- key-value store ----------------------------------------------------------------------
    p(lambda c: MemvaultKVStore(c.store, "users"), "kv namespace str"),
    p(lambda c: MemvaultKVStore("./memories", ("kv",)), "kv store str"),
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
    p(lambda c: MemvaultLangGraphStore("./memories"), "graph store is a path"),
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


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("template") / "store"
    prefilled_store(folder).close()
    return folder


@pytest.mark.parametrize(("bad_call", "expected"), CASES)
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
