"""Tools, middleware and retriever take an AgentMemory, or a store and options, never both."""

import pytest
from langchain_memvault import (
    MemoryMiddleware,
    MemvaultRetriever,
    RememberTool,
    create_memory_tools,
)

from memvault import AgentMemory, InvalidArgumentError
from memvault.errors import InvalidNamespaceError
from tests.langchain.fakes import small_store

ADA = {"configurable": {"user_id": "ada"}}


def test_a_store_and_options_build_the_same_memory_an_agent_memory_gives():
    store = small_store()
    given = AgentMemory(store, ("teams", "{user_id}"), ttl=60)
    from_memory = RememberTool(memory=given)
    from_store = RememberTool(store=store, namespace=("teams", "{user_id}"), ttl=60)
    assert from_memory.memory is given
    assert (from_store.memory.namespace, from_store.memory.ttl) == (("teams", "{user_id}"), 60)
    assert from_store.name == from_memory.name == "remember"
    from_store.invoke({"text": "Ada leads the blue team."}, ADA)
    (item,) = store.search(("teams", "ada"))
    assert item.expires_at - item.updated_at == pytest.approx(60)

    middleware = MemoryMiddleware(store, ("teams", "{user_id}"), k=2, filter={"kind": "turn"})
    assert (middleware.memory.k, middleware.memory.filter) == (2, {"kind": "turn"})
    assert MemoryMiddleware(given).memory is given


def test_options_next_to_an_agent_memory_are_refused_not_ignored():
    memory = AgentMemory(small_store())
    with pytest.raises(InvalidArgumentError, match="namespace"):
        create_memory_tools(memory, ("orgs", "{org_id}"))
    with pytest.raises(InvalidArgumentError, match="ttl"):
        create_memory_tools(memory, ttl=10)
    with pytest.raises(InvalidArgumentError, match="k"):
        MemoryMiddleware(memory, k=3)
    with pytest.raises(InvalidArgumentError, match="either memory=... or store="):
        RememberTool(memory=memory, store=memory.store)


def test_bad_arguments_raise_memvault_errors_not_pydantic_ones():
    store = small_store()
    with pytest.raises(InvalidNamespaceError, match="tuple of strings"):
        create_memory_tools(store, namespace="users")
    with pytest.raises(InvalidNamespaceError, match="tuple of strings"):
        RememberTool(store=store, namespace="users")
    with pytest.raises(InvalidNamespaceError, match="tuple of strings"):
        MemoryMiddleware(store, "users")
    with pytest.raises(InvalidArgumentError, match="AgentMemory or MemoryStore"):
        create_memory_tools({"path": ":memory:"})
    with pytest.raises(InvalidArgumentError, match="prefix"):
        create_memory_tools(store, prefix="org tools ")
    with pytest.raises(InvalidArgumentError, match="name"):
        MemoryMiddleware(store, name="org memory")
    with pytest.raises(InvalidNamespaceError, match="segment 1 is empty"):
        MemvaultRetriever(store=store, namespace=["users", ""])
    with pytest.raises(InvalidArgumentError, match="k must be"):
        MemvaultRetriever(store=store, search_kwargs={"k": 0})
