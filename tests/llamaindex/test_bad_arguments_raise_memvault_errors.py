import pytest
from llama_index.memory.memvault import (
    MemvaultEmbedding,
    MemvaultMemoryBlock,
    MemvaultRetriever,
    MemvaultToolSpec,
    memvault_memory,
)

from memvault import AgentMemory, InvalidArgumentError, MemvaultError
from memvault.errors import InvalidFilterError


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda s: MemvaultMemoryBlock(s, user_id="a", similarity_top_k=0), "similarity_top_k"),
        (lambda s: MemvaultMemoryBlock(s, user_id="a", priority=-1), "priority"),
        (
            lambda s: MemvaultMemoryBlock(AgentMemory(s), user_id="a", similarity_top_k=3),
            "similarity_top_k cannot be given",
        ),
        (lambda s: memvault_memory(AgentMemory(s), user_id="a", filter={}), "filter cannot"),
        (lambda s: MemvaultToolSpec(AgentMemory(s), namespace=("x",)), "namespace cannot"),
        (lambda s: MemvaultToolSpec(s, prefix=1), "prefix"),
        (lambda s: MemvaultToolSpec(s).to_tool_list(["remember", "delete"]), "delete"),
        (lambda s: MemvaultMemoryBlock(s, user_id="a", extractor="gpt"), "extractor"),
        (lambda s: MemvaultMemoryBlock({"not": "a store"}, user_id="a"), "MemoryStore"),
        (lambda s: memvault_memory(s, user_id="a", similarity_top_k=True), "similarity_top_k"),
        (lambda s: MemvaultRetriever(s, user_id="a", similarity_top_k=0), "similarity_top_k"),
        (lambda s: MemvaultEmbedding(object()), "embedder"),
    ],
)
def test_a_bad_argument_names_its_field(store, build, field):
    with pytest.raises(InvalidArgumentError, match=field):
        build(store)


def test_the_model_writing_an_empty_fact_gets_a_memvault_error(store):
    (remember,) = MemvaultToolSpec(store, user_id="a").to_tool_list(["remember"])
    with pytest.raises(MemvaultError, match="text"):
        remember.fn(text="   ")


def test_a_bad_filter_fails_when_built(store):
    with pytest.raises(InvalidFilterError):
        memvault_memory(store, user_id="a", filter={"kind": {"$near": "fact"}})
    with pytest.raises(InvalidFilterError):
        MemvaultRetriever(store, user_id="a", filter=["kind"])
