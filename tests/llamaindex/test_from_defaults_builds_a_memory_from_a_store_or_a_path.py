"""MemvaultMemory.from_defaults(store=... | path=..., user_id=...) builds a memory with a
memvault block, and refuses to build one without."""

import pytest
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.memory.memvault import MemvaultMemory, MemvaultMemoryBlock, memvault_memory

from memvault import AgentMemory, InvalidArgumentError


def test_a_memory_on_a_folder_recalls_across_sessions_and_reopenings(tmp_path, recording_llm):
    memory = MemvaultMemory.from_defaults(path=tmp_path / "memories", user_id="alice")
    SimpleChatEngine.from_defaults(llm=recording_llm(), memory=memory).chat("I live in Porto.")
    memory.memory_blocks[0].memory.store.close()

    llm = recording_llm()
    memory = MemvaultMemory.from_defaults(
        path=str(tmp_path / "memories"), user_id="alice", session_id="s2"
    )
    SimpleChatEngine.from_defaults(llm=llm, memory=memory).chat("Where do I live?")

    assert '{"text": "I live in Porto."' in llm.prompts[-1]
    memory.memory_blocks[0].memory.store.close()


def test_a_store_or_an_agent_memory_is_used_as_given(store):
    from_store = MemvaultMemory.from_defaults(
        store=store, user_id="alice", session_id="s1", similarity_top_k=2, token_limit=4000
    )
    policy = AgentMemory(store, ("teams", "{user_id}"), k=3)
    from_policy = MemvaultMemory.from_defaults(store=policy, user_id="red")

    block = from_store.memory_blocks[0]
    assert isinstance(block, MemvaultMemoryBlock) and block.user_id == "alice"
    assert block.memory.store is store and block.memory.k == 2
    assert (from_store.session_id, from_store.token_limit) == ("s1", 4000)
    assert from_policy.memory_blocks[0].memory is policy
    assert from_policy.memory_blocks[0].scope("s").namespace == ("teams", "red")


def test_memvault_memory_is_from_defaults_with_the_store_first(store):
    helper = memvault_memory(store, user_id="alice", session_id="s1", similarity_top_k=4)
    built = MemvaultMemory.from_defaults(
        store=store, user_id="alice", session_id="s1", similarity_top_k=4
    )

    assert type(helper) is type(built) is MemvaultMemory
    assert helper.model_dump() == built.model_dump()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"session_id": "s1", "user_id": "alice"},
            r"either store= .* or path= .*neither.*store=MemoryStore\(\)",
        ),
        ({"store": "store", "path": "./memories", "user_id": "alice"}, "not both"),
        ({"path": 42, "user_id": "alice"}, "path must be a folder path"),
    ],
    ids=["neither", "both", "bad-path"],
)
def test_without_exactly_one_store_or_path_it_refuses(store, arguments, message):
    arguments = {k: store if v == "store" else v for k, v in arguments.items()}

    with pytest.raises(InvalidArgumentError, match=message):
        MemvaultMemory.from_defaults(**arguments)
