"""`MemvaultEmbedding` given something other than text raises a typed error naming it, as the
LangChain embeddings do (found by a newcomer: `get_query_embedding(5)` raised the tokenizer's
TypeError, and `get_text_embedding_batch("abc")` embedded three letters)."""

import pytest
from llama_index.memory.memvault import MemvaultEmbedding

from memvault import HashingEmbedder, InvalidArgumentError


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda e: e.get_query_embedding(5), "query must be a UTF-8 string, got int"),
        (lambda e: e.get_text_embedding(None), "text must be a UTF-8 string"),
        (lambda e: e.get_text_embedding_batch([1, 2]), r"texts\[0\] must be a UTF-8 string"),
        (lambda e: e.get_text_embedding_batch("abc"), "texts must be a list of strings"),
    ],
)
def test_a_non_text_is_named(call, named):
    with pytest.raises(InvalidArgumentError, match=named):
        call(MemvaultEmbedding(HashingEmbedder(16)))


async def test_async_forms_refuse_it_too():
    embedding = MemvaultEmbedding(HashingEmbedder(16))
    with pytest.raises(InvalidArgumentError, match="query must be"):
        await embedding.aget_query_embedding(5)
    with pytest.raises(InvalidArgumentError, match="texts must be"):
        await embedding.aget_text_embedding_batch("abc")
    assert len(await embedding.aget_text_embedding_batch(["a", "b"])) == 2
