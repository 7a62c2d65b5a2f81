"""LangChain-, LlamaIndex- and Chroma-style embedders and plain callables work, by duck typing."""

import pytest

from memvault import FunctionEmbedder, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.embedding import as_embedder
from memvault.errors import InvalidArgumentError

BASE = HashingEmbedder(16)


class LangChainStyle:
    model = "fake-lc"

    def embed_documents(self, texts):
        return BASE.embed_documents(texts)

    def embed_query(self, text):
        return BASE.embed_query(text)


class LlamaIndexStyle:
    model_name = "fake-li"

    def get_text_embedding_batch(self, texts):
        return BASE.embed_documents(texts)

    def get_query_embedding(self, text):
        return BASE.embed_query(text)


class ChromaStyle:
    def __call__(self, input):
        return BASE.embed_documents(input)

    @staticmethod
    def name():
        return "fake-chroma"


@pytest.mark.parametrize(
    ("embedder", "name"),
    [
        (LangChainStyle(), "LangChainStyle:fake-lc"),
        (LlamaIndexStyle(), "LlamaIndexStyle:fake-li"),
        (ChromaStyle(), "chroma:fake-chroma"),
        (BASE.embed_documents, None),
    ],
)
def test_adapted_embedder_stores_and_searches(embedder, name):
    adapted = as_embedder(embedder)
    assert isinstance(adapted, FunctionEmbedder) and adapted.dim == 16
    if name:
        assert adapted.name.endswith(name)
    store = MemoryStore(backend=InMemoryBackend(), embedder=embedder)
    store.put(("a",), "tea", {"text": "green tea"})
    store.put(("a",), "dog", {"text": "a dog named rex"})
    assert store.search(("a",), query="rex the dog")[0].key == "dog"


def test_protocol_embedder_is_used_as_is():
    assert as_embedder(BASE) is BASE


def test_unsupported_embedder_is_a_clear_error():
    with pytest.raises(InvalidArgumentError, match="embed_documents"):
        as_embedder(42)
