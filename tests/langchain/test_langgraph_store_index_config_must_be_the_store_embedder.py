"""index= is LangGraph's IndexConfig; its embed and dims must be the memvault store's own.

A memvault store embeds every item with the one embedder it was made with (and records it), so
an ``IndexConfig`` naming another model or dimension is refused with
``memvault.EmbedderMismatchError`` rather than silently ignored; ``fields`` choose the text.
"""

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_memvault import MemvaultEmbeddings, MemvaultLangGraphStore

from memvault import (
    EmbedderMismatchError,
    HashingEmbedder,
    InMemoryBackend,
    InvalidArgumentError,
    MemoryStore,
)
from tests.langchain.fakes import small_store


def test_the_store_embedder_in_any_form_is_accepted():
    core = small_store()
    for embed in (core.embedder, HashingEmbedder(64), MemvaultEmbeddings(HashingEmbedder(64))):
        store = MemvaultLangGraphStore(core, index={"dims": 64, "embed": embed, "fields": ["t"]})
        assert store.index_config == {"dims": 64, "fields": ["t"]}
    fake = DeterministicFakeEmbedding(size=16)
    core = MemoryStore(embedder=fake, backend=InMemoryBackend())
    MemvaultLangGraphStore(core, index={"dims": 16, "embed": fake})
    MemvaultLangGraphStore(core, index={"embed": DeterministicFakeEmbedding(size=16)})


@pytest.mark.parametrize(
    "index",
    [
        {"dims": 1536, "embed": MemvaultEmbeddings(HashingEmbedder(64))},
        {"dims": 64, "embed": DeterministicFakeEmbedding(size=64)},
        {"embed": MemvaultEmbeddings(HashingEmbedder(32))},
        {"embed": "openai:text-embedding-3-small"},
        {"embed": lambda texts: [[0.0] * 64 for _ in texts]},
    ],
)
def test_another_model_or_dimension_is_refused_with_the_fix(index):
    with pytest.raises(EmbedderMismatchError, match="memvault-hashing-64") as error:
        MemvaultLangGraphStore(small_store(), index=index)
    assert "MemoryStore(path, embedder=" in str(error.value) or "dims" in str(error.value)


@pytest.mark.parametrize(
    ("index", "match"),
    [
        ({"fields": ["text"], "distance_type": "cosine"}, "unknown keys \\['distance_type'\\]"),
        ({"fields": "text"}, "list of JSON paths"),
        ({"fields": ["text", ""]}, "list of JSON paths"),
        (["text"], "IndexConfig dict"),
    ],
)
def test_a_malformed_index_config_is_refused_naming_the_field(index, match):
    with pytest.raises(InvalidArgumentError, match=match):
        MemvaultLangGraphStore(small_store(), index=index)


def test_a_put_index_that_is_not_a_list_is_refused():
    store = MemvaultLangGraphStore(small_store())
    with pytest.raises(InvalidArgumentError, match="index must be None, False or a list"):
        store.put(("t",), "k", {"title": "x"}, index="title")
