"""Every bad input to the LlamaIndex adapter's entry points raises a memvault error and leaves the
store as it was (export before = export after, read by a store opened anew).

The tools check their own arguments (a model's mistakes are memvault errors too); where
LlamaIndex owns the layer, its own validation error is the documented answer:
``BaseRetriever.retrieve`` given something other than a string or ``QueryBundle`` raises
``pydantic.ValidationError`` (see the adapter's README).
"""

from __future__ import annotations

import asyncio
import math
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
from pydantic import ValidationError

from memvault import AgentMemory, MemoryStore, MemvaultError
from tests.core.bad_inputs import (
    BIG,
    DEEP,
    copy_of,
    exported,
    open_store,
    prefilled_store,
    reopened_export,
)

FIVE_THOUSAND = ("a",) * 5000
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


def p(call, id, expected=MemvaultError):
    return pytest.param(call, expected, id=id)


CASES = [
    # -- tools --------------------------------------------------------------------------------
    p(lambda c: c.tool("remember").call(text="I like tea\udc00"), "remember lone surrogate"),
    p(lambda c: c.tool("remember").fn(text="a\udc00"), "remember fn lone surrogate"),
    p(lambda c: c.tool("remember").call(text="   "), "remember blank"),
    p(lambda c: c.tool("remember").call(text=5), "remember text int"),
    p(lambda c: c.tool("remember").call(text=DEEP), "remember text nested 5,000 deep"),
    p(lambda c: c.tool("remember").call(), "remember without text"),
    p(lambda c: c.tool("remember").call(txt="tea"), "remember wrong argument name"),
    p(lambda c: c.tool("remember").call(5), "remember positional int"),
    p(lambda c: asyncio.run(c.tool("remember").acall(text=" ")), "aremember blank"),
    p(lambda c: c.tool("recall").call(query="tea", limit=0), "recall limit 0"),
    p(lambda c: c.tool("recall").call(query="tea", limit="many"), "recall limit str"),
    p(lambda c: c.tool("recall").call(query="tea\udc00"), "recall lone surrogate"),
    p(lambda c: c.tool("list_memories").call(offset=-1), "list offset negative"),
    p(lambda c: c.tool("list_memories").call(limit=101), "list limit 101"),
    p(lambda c: c.tool("forget").call(memory=""), "forget empty"),
    p(lambda c: c.tool("remember", user_id=None).call(text="I like tea."), "tool without user"),
    p(lambda c: c.tool("remember", user_id=5).call(text="I like tea."), "tool user_id int"),
    p(lambda c: c.tool("remember", user_id="a\udc00").call(text="x"), "tool user_id surrogate"),
    p(lambda c: c.tool("remember", user_id="a" * 300).call(text="x"), "tool user_id 300 chars"),
    p(lambda c: MemvaultToolSpec(c.store, namespace="users"), "spec namespace str"),
    p(lambda c: MemvaultToolSpec(c.store, namespace=FIVE_THOUSAND), "spec namespace 5,000"),
    p(lambda c: MemvaultToolSpec(5), "spec store int"),
    p(lambda c: MemvaultToolSpec(c.store, prefix=1), "spec prefix int"),
    p(lambda c: MemvaultToolSpec(AgentMemory(c.store), namespace=("x",)), "spec memory and ns"),
    p(lambda c: MemvaultToolSpec(c.store).to_tool_list(["delete"]), "spec unknown tool"),
    p(lambda c: MemvaultToolSpec(c.store).to_tool_list([5]), "spec tool name int"),
    # -- memory block -------------------------------------------------------------------------
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", similarity_top_k=0), "block top_k 0"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id=5), "block user_id int"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a\udc00"), "block user_id surrogate"),
    p(lambda c: MemvaultMemoryBlock(c.store), "block without user"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", filter={"n": math.nan}), "block NaN"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", filter={"n": BIG}), "block big int"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", header=5), "block header int"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", name=5), "block name int"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", priority=-1), "block priority -1"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", extractor="gpt"), "block extractor"),
    p(lambda c: MemvaultMemoryBlock({"not": "a store"}, user_id="a"), "block store dict"),
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
    p(lambda c: memvault_memory(c.store, user_id="a\udc00"), "memory user_id surrogate"),
    p(lambda c: memvault_memory(c.store, user_id="a", similarity_top_k=True), "memory top_k"),
    p(lambda c: memvault_memory(c.store, user_id="a", namespace=FIVE_THOUSAND), "memory ns"),
    p(lambda c: memvault_memory(c.store, user_id="a", chat_history=5), "memory history int"),
    p(lambda c: memvault_memory(c.store, user_id="a", chat_history=[5]), "memory history [int]"),
    p(lambda c: memvault_memory(AgentMemory(c.store), user_id="a", filter={}), "memory + filter"),
    p(lambda c: c.memory().put("I like tea."), "memory put str"),
    p(lambda c: c.memory().put_messages([USER, None]), "memory put_messages None"),
    p(lambda c: c.memory().set(5), "memory set int"),
    p(lambda c: memvault_memory(c.store, user_id="a", background="yes"), "memory background str"),
    p(lambda c: MemvaultMemoryBlock(c.store, user_id="a", background=1), "block background int"),
    p(
        lambda c: memvault_memory(AgentMemory(c.store), user_id="a", background=True),
        "memory + background",
    ),
    p(lambda c: c.memory().flush(timeout=-1), "memory flush timeout negative"),
    p(lambda c: asyncio.run(c.memory().aflush(timeout="1")), "memory aflush timeout str"),
    p(lambda c: c.block().flush(timeout=math.nan), "block flush timeout NaN"),
    # -- retriever and embedding --------------------------------------------------------------
    p(lambda c: MemvaultRetriever(c.store, user_id="a", similarity_top_k=0), "retriever top_k"),
    p(lambda c: MemvaultRetriever(c.store, user_id="a", filter=["kind"]), "retriever filter"),
    p(lambda c: MemvaultRetriever(c.store), "retriever without user"),
    p(lambda c: MemvaultRetriever(c.store, namespace="users", user_id="a"), "retriever ns str"),
    p(lambda c: c.retriever().retrieve("tea\udc00"), "retrieve lone surrogate"),
    p(lambda c: asyncio.run(c.retriever().aretrieve("tea\udc00")), "aretrieve lone surrogate"),
    p(lambda c: MemvaultEmbedding(object()), "embedding of an object"),
    p(lambda c: c.retriever().retrieve(5), "retrieve int", expected=ValidationError),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("template") / "store"
    prefilled_store(folder).close()
    return folder


@pytest.mark.parametrize(("bad_call", "expected"), CASES)
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
