"""A store records the embedding of a probe text with its embedder's name: a model that embeds
differently is refused even when the names agree (every top-level lambda is called
``__main__.<lambda>``), at its first write or query (opening to read loads no model), and an
embedder that returns the wrong shape writes nothing."""

import numpy as np
import pytest

from memvault import (
    EmbedderMismatchError,
    FunctionEmbedder,
    HashingEmbedder,
    InMemoryBackend,
    MemoryStore,
)
from memvault.errors import EmbedderError

NS = ("users", "alice")


def model(seed):
    """A stand-in 64-d model: a fixed random projection of HashingEmbedder's vectors."""
    base = HashingEmbedder(64)
    projection = np.random.default_rng(seed).normal(size=(64, 64))

    def embed(texts):
        return (np.asarray(base.embed_documents(texts)) @ projection).tolist()

    return embed


def test_same_name_other_model_is_refused(tmp_path):
    with MemoryStore(tmp_path, embedder=FunctionEmbedder(model(1), name="mine", dim=64)) as s:
        s.put(NS, "tea", {"text": "alice drinks tea"})
    with MemoryStore(tmp_path, embedder=FunctionEmbedder(model(2), name="mine", dim=64)) as s:
        assert s.get(NS, "tea").text == "alice drinks tea"  # a read embeds nothing
        with pytest.raises(EmbedderMismatchError, match="embeds differently"):
            s.search(NS, query="tea", mode="dense")
        with pytest.raises(EmbedderMismatchError, match="embeds differently"):
            s.put(NS, "coffee", {"text": "alice drinks coffee"})
        assert s.get(NS, "coffee") is None
    with MemoryStore(tmp_path, embedder=FunctionEmbedder(model(1), name="mine", dim=64)) as s:
        assert [i.key for i in s.search(NS, query="alice drinks tea")] == ["tea"]


def test_a_lambda_over_another_model_is_refused(tmp_path):
    first, second = model(1), model(2)
    MemoryStore(tmp_path, embedder=lambda texts: first(texts)).close()
    store = MemoryStore(tmp_path, embedder=lambda texts: second(texts))
    with pytest.raises(EmbedderMismatchError):
        store.put(NS, "tea", {"text": "alice drinks tea"})
    store.close()


@pytest.mark.parametrize(
    "output",
    [
        lambda texts: [[0.1] * 63 for _ in texts],  # too short
        lambda texts: [[0.1] * 64 for _ in texts][:-1],  # one vector missing
        lambda texts: [[float("nan")] * 64 for _ in texts],
        lambda texts: ["not a vector" for _ in texts],
    ],
    ids=["short", "missing", "nan", "strings"],
)
def test_wrong_vectors_are_a_typed_error_and_write_nothing(output):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    store.put(NS, "tea", {"text": "alice drinks tea"})
    store.embedder = FunctionEmbedder(output, name=store.embedder.name, dim=64)
    with pytest.raises(EmbedderError, match="embedder"):
        store.put_many(NS, [("a", {"text": "one"}), ("b", {"text": "two"})])
    assert store.count() == 1


def test_an_embedder_that_raises_is_a_typed_error_with_its_cause():
    def broken(texts):
        raise ConnectionError("provider down")

    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    store.embedder = FunctionEmbedder(broken, name=store.embedder.name, dim=64)
    with pytest.raises(EmbedderError, match="provider down") as caught:
        store.put(NS, "a", {"text": "one"})
    assert isinstance(caught.value.__cause__, ConnectionError)


def test_vectors_of_any_length_are_compared_by_cosine(tmp_path):
    def same(texts):  # not unit length: reopening with it must be accepted
        return [[0.1 * (len(t) % 3 + 1), 0.2, 0.05 * t.count(" ")] for t in texts]

    def other(texts):  # same name and dimension, cosine about 0.3 against `first`
        return [[len(t), 1.0, 3.0 * len(t)] for t in texts]

    def first(texts):
        return [[len(t), 1.0, 0.0] for t in texts]

    MemoryStore(tmp_path / "a", embedder=FunctionEmbedder(same, name="m", dim=3)).close()
    with MemoryStore(tmp_path / "a", embedder=FunctionEmbedder(same, name="m", dim=3)) as store:
        store.put(NS, "tea", {"text": "alice drinks tea"})
    MemoryStore(tmp_path / "b", embedder=FunctionEmbedder(first, name="m", dim=3)).close()
    store = MemoryStore(tmp_path / "b", embedder=FunctionEmbedder(other, name="m", dim=3))
    with pytest.raises(EmbedderMismatchError, match="embeds differently"):
        store.put(NS, "tea", {"text": "alice drinks tea"})
    store.close()
