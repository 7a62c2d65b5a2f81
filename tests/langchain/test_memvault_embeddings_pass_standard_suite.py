from langchain_memvault import MemvaultEmbeddings
from langchain_tests.unit_tests import EmbeddingsUnitTests


class TestDefaultMemvaultEmbeddings(EmbeddingsUnitTests):
    @property
    def embeddings_class(self) -> type[MemvaultEmbeddings]:
        return MemvaultEmbeddings


def test_default_embeddings_are_offline_minilm_with_384_dimensions():
    embeddings = MemvaultEmbeddings()
    tea, drink, car = embeddings.embed_documents(
        ["Ada drinks green tea", "What does Ada drink?", "The car needs new tyres"]
    )
    assert embeddings.dim == 384 and len(tea) == 384

    def cosine(a, b):
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cosine(tea, drink) > cosine(tea, car)
