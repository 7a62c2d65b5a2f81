"""`MemvaultEmbeddings` given something other than text raises a typed error naming it (issue
28, finding 5: `embed_query(5)` raised a raw TypeError from the tokenizer)."""

import pytest
from langchain_memvault import MemvaultEmbeddings

from memvault import HashingEmbedder, InvalidArgumentError


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda e: e.embed_query(5), "text must be a UTF-8 string, got int"),
        (lambda e: e.embed_documents("one text"), "texts must be a list of strings"),
        (lambda e: e.embed_documents(["fine", None]), r"texts\[1\] must be a UTF-8 string"),
        (lambda e: e.embed_query("\ud800"), "text must be a UTF-8 string"),
    ],
)
def test_a_non_text_is_named(call, named):
    with pytest.raises(InvalidArgumentError, match=named):
        call(MemvaultEmbeddings(HashingEmbedder(16)))


async def test_async_forms_refuse_it_too():
    with pytest.raises(InvalidArgumentError, match="text must be"):
        await MemvaultEmbeddings(HashingEmbedder(16)).aembed_query(5)
