"""Every bad input to the LlamaIndex adapter's entry points raises a memvault error and leaves the
store as it was (export before = export after, read by a store opened anew).

The bad values both adapters must refuse alike are the shared contract of
``tests/core/adapter_bad_inputs.py`` (user ids, namespaces, stores, k, filters, queries, tool
arguments, options, flush timeouts), each with the memvault error it must raise; this file says
which entry points of this adapter take each kind (:data:`SHARED`) and adds the cases only it has
(:data:`CASES`: the tool spec's tool names, the block's messages, ``Memory``'s own arguments...).

The tools check their own arguments (a model's mistakes are memvault errors too), and so does
the retriever its query (LlamaIndex's ``BaseRetriever.retrieve`` took anything but a string for
a ``QueryBundle``), so here every bad input is a memvault error (see the adapter's README).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.memory.memvault import (
    MemvaultEmbedding,
    MemvaultMemory,
    MemvaultMemoryBlock,
    MemvaultRetriever,
    MemvaultToolSpec,
    memvault_memory,
)

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
    copy_of,
    exported,
    open_store,
    prefilled_store,
    reopened_export,
)

USER = ChatMessage(role="user", content="I like tea.")


@dataclass
class Context:
    store: MemoryStore

    def tool(self, name: str, **options):
        options.setdefault("user_id", "alice")
        tools = MemvaultToolSpec(self.store, **options).to_tool_list()
        return {tool.metadata.name: tool for tool in tools}[name]

    def block(self):
        return MemvaultMemoryBlock(self.store, user_id="alice")

    def memory(self):
        return memvault_memory(self.store, user_id="alice")

    def retriever(self):
        return MemvaultRetriever(self.store, user_id="alice")


def user(user_id) -> dict:
    """``user_id=...`` as keyword arguments; none for ABSENT."""
    return {} if user_id is ABSENT else {"user_id": user_id}


def top_k(options: dict) -> dict:
    """Keyword arguments with the contract's ``k`` under this adapter's name."""
    return {"similarity_top_k" if name == "k" else name: v for name, v in options.items()}


SHARED = [
    *cases(
        USER_IDS,
        EntryPoint(
            "tool user_id",
            lambda c, u: c.tool("remember", user_id=None if u is ABSENT else u).call(
                text="I like tea."
            ),
        ),
        EntryPoint(
            "block user_id",
            lambda c, u: MemvaultMemoryBlock(c.store, **user(u)),
        ),
        EntryPoint(
            "memory user_id",
            lambda c, u: memvault_memory(c.store, **user(u)),
        ),
        EntryPoint("retriever user_id", lambda c, u: MemvaultRetriever(c.store, **user(u))),
    ),
    *cases(
        NAMESPACES,
        EntryPoint("spec namespace", lambda c, ns: MemvaultToolSpec(c.store, namespace=ns)),
        EntryPoint(
            "block namespace",
            lambda c, ns: MemvaultMemoryBlock(c.store, user_id="a", namespace=ns),
        ),
        EntryPoint(
            "memory namespace", lambda c, ns: memvault_memory(c.store, user_id="a", namespace=ns)
        ),
        EntryPoint(
            "retriever namespace",
            lambda c, ns: MemvaultRetriever(c.store, user_id="a", namespace=ns),
        ),
    ),
    *cases(
        STORES,
        EntryPoint("spec store", lambda c, store: MemvaultToolSpec(store)),
        EntryPoint("block store", lambda c, store: MemvaultMemoryBlock(store, user_id="a")),
        EntryPoint("memory store", lambda c, store: memvault_memory(store, user_id="a")),
        EntryPoint("retriever store", lambda c, store: MemvaultRetriever(store, user_id="a")),
    ),
    *cases(
        PREFIXES,
        EntryPoint(
            "spec prefix",
            lambda c, prefix: MemvaultToolSpec(c.store, prefix=prefix),
        ),
    ),
    *cases(
        WITH_A_MEMORY,
        EntryPoint(
            "spec AgentMemory and",
            lambda c, options: MemvaultToolSpec(AgentMemory(c.store), **options),
            only=frozenset({"namespace"}),
        ),
        EntryPoint(
            "block AgentMemory and",
            lambda c, options: MemvaultMemoryBlock(
                AgentMemory(c.store), user_id="a", **top_k(options)
            ),
        ),
        EntryPoint(
            "memory AgentMemory and",
            lambda c, options: memvault_memory(AgentMemory(c.store), user_id="a", **top_k(options)),
        ),
        EntryPoint(
            "retriever AgentMemory and",
            lambda c, options: MemvaultRetriever(
                AgentMemory(c.store), user_id="a", **top_k(options)
            ),
            only=frozenset({"namespace", "k", "filter"}),
        ),
    ),
    *cases(
        OPTIONS,
        EntryPoint(
            "block", lambda c, options: MemvaultMemoryBlock(c.store, user_id="a", **options)
        ),
        EntryPoint(
            "memory",  # MemvaultMemory has no header or name of its own (its blocks do)
            lambda c, options: memvault_memory(c.store, user_id="a", **options),
            only=frozenset({"extractor str", "background str", "background int"}),
        ),
    ),
    *cases(
        TOOL_CALLS,
        EntryPoint("", lambda c, call: c.tool(call.tool).call(**call.arguments)),
        EntryPoint("async", lambda c, call: asyncio.run(c.tool(call.tool).acall(**call.arguments))),
    ),
    *cases(
        REMEMBER_INPUTS,
        EntryPoint("remember positional", lambda c, text: c.tool("remember").call(text)),
        EntryPoint(
            "aremember positional",
            lambda c, text: asyncio.run(c.tool("remember").acall(text)),
        ),
    ),
    *cases(
        KS,
        EntryPoint(
            "block top_k",
            lambda c, k: MemvaultMemoryBlock(c.store, user_id="a", similarity_top_k=k),
        ),
        EntryPoint(
            "memory top_k", lambda c, k: memvault_memory(c.store, user_id="a", similarity_top_k=k)
        ),
        EntryPoint(
            "retriever top_k",
            lambda c, k: MemvaultRetriever(c.store, user_id="a", similarity_top_k=k),
        ),
    ),
    *cases(
        FILTERS,
        EntryPoint(
            "block filter", lambda c, f: MemvaultMemoryBlock(c.store, user_id="a", filter=f)
        ),
        EntryPoint("memory filter", lambda c, f: memvault_memory(c.store, user_id="a", filter=f)),
        EntryPoint(
            "retriever filter", lambda c, f: MemvaultRetriever(c.store, user_id="a", filter=f)
        ),
    ),
    *cases(
        QUERIES,
        EntryPoint(
            "retrieve",
            lambda c, query: c.retriever().retrieve(query),
        ),
        EntryPoint(
            "aretrieve",
            lambda c, query: asyncio.run(c.retriever().aretrieve(query)),
        ),
    ),
    *cases(
        TIMEOUTS,
        EntryPoint("memory flush timeout", lambda c, t: c.memory().flush(timeout=t)),
        EntryPoint("memory aflush timeout", lambda c, t: asyncio.run(c.memory().aflush(timeout=t))),
        EntryPoint("block flush timeout", lambda c, t: c.block().flush(timeout=t)),
        EntryPoint(
            "background memory flush timeout",
            lambda c, t: memvault_memory(c.store, user_id="a", background=True).flush(timeout=t),
        ),
    ),
]
"""The shared bad values (``tests/core/adapter_bad_inputs.py``) through this adapter's parts."""


def p(call, id, expected=MemvaultError):
    return pytest.param(call, expected, id=id)


CASES = [
    # -- tools --------------------------------------------------------------------------------
    p(lambda c: c.tool("remember").fn(text="a\udc00"), "remember fn lone surrogate"),
    p(lambda c: MemvaultToolSpec(c.store).to_tool_list(["delete"]), "spec unknown tool"),
    p(lambda c: MemvaultToolSpec(c.store).to_tool_list([5]), "spec tool name int"),
    # -- memory block -------------------------------------------------------------------------
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", priority=-1), "block priority -1"),
    p(lambda c: asyncio.run(c.block().aget(5)), "block aget int"),
    p(lambda c: asyncio.run(c.block().aget(["tea"])), "block aget list of str"),
    p(
        lambda c: asyncio.run(c.block().aget([ChatMessage(role="user", content="tea\udc00")])),
        "block aget lone surrogate",
    ),
    p(lambda c: asyncio.run(c.block().aput(None)), "block aput None"),
    p(lambda c: asyncio.run(c.block().aput([USER, "I like coffee."])), "block aput str message"),
    # -- memory -------------------------------------------------------------------------------
    p(lambda c: MemvaultMemory.from_defaults(store=c.store, path="x", user_id="a"), "both"),
    p(lambda c: MemvaultMemory.from_defaults(user_id="a"), "memory neither store nor path"),
    p(lambda c: MemvaultMemory.from_defaults(path=5, user_id="a"), "memory path int"),
    p(lambda c: memvault_memory(c.store, user_id="a", chat_history=5), "memory history int"),
    p(lambda c: memvault_memory(c.store, user_id="a", chat_history=[5]), "memory history [int]"),
    p(lambda c: c.memory().put("I like tea."), "memory put str"),
    p(lambda c: c.memory().put_messages([USER, None]), "memory put_messages None"),
    p(lambda c: c.memory().set(5), "memory set int"),
    # -- embedding ----------------------------------------------------------------------------
    p(lambda c: MemvaultEmbedding(object()), "embedding of an object"),
]
"""The bad inputs only this adapter's parts take."""


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("template") / "store"
    prefilled_store(folder).close()
    return folder


@pytest.mark.parametrize(("bad_call", "expected"), [*SHARED, *CASES])
def test_llamaindex_entry_points(tmp_path, template, bad_call, expected):
    folder = copy_of(template, tmp_path / "store")
    store = open_store(folder)
    before = exported(store, tmp_path / "before.jsonl")
    try:
        with pytest.raises(expected):
            bad_call(Context(store))
    finally:
        store.close()
    assert reopened_export(folder, tmp_path / "after.jsonl") == before
