import math

from llama_index.core import VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import TextNode
from llama_index.memory.memvault import MemvaultEmbedding

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore


class KeywordEmbedding(BaseEmbedding):
    """A LlamaIndex embedding of our own: one dimension per keyword."""

    def _vector(self, text: str) -> list[float]:
        words = ("peanut", "porto", "train", "tea")
        return [float(word in text.lower()) for word in words] + [0.1]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)


def test_a_llamaindex_embedding_is_the_stores_embedder():
    store = MemoryStore(embedder=KeywordEmbedding(model_name="keywords"), backend=InMemoryBackend())
    store.put(("u",), "a", {"text": "Allergic to peanuts."})
    store.put(("u",), "b", {"text": "Lives in Porto."})

    assert store.embedder.dim == 5
    assert [i.key for i in store.search(("u",), query="Where in Porto?")] == ["b", "a"]


def test_the_default_embedder_is_a_llamaindex_embedding():
    embedding = MemvaultEmbedding()
    tea, green_tea, train = embedding.get_text_embedding_batch(
        ["I drink tea every morning.", "Green tea is my favourite drink.", "The train was late."]
    )
    query = embedding.get_query_embedding("What does the user drink?")

    assert embedding.model_name == "all-MiniLM-L6-v2-int8" and embedding.dim == 384
    assert len(tea) == 384 and math.isclose(sum(x * x for x in tea), 1.0, rel_tol=1e-4)

    def cos(a, b):
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cos(tea, green_tea) > cos(tea, train)
    assert cos(query, tea) > cos(query, train)


async def test_any_memvault_embedder_serves_a_vector_index():
    embedding = MemvaultEmbedding(HashingEmbedder(64))
    index = VectorStoreIndex(
        [TextNode(text="Peanut-free menu: rice bowls."), TextNode(text="Trains leave hourly.")],
        embed_model=embedding,
    )
    nodes = await index.as_retriever(similarity_top_k=1).aretrieve("peanut-free menu")

    assert embedding.model_name == "memvault-hashing-64"
    assert nodes[0].node.get_content() == "Peanut-free menu: rice bowls."
