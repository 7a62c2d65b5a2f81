"""`MemoryStore(embedder="provider:model")` builds the model with LangChain's `init_embeddings`
and records the string itself as the embedder's name, so the store reopens with the same string.

No provider works offline, so `init_embeddings` is replaced by one that returns LangChain's
deterministic fake embeddings after checking what it was asked for."""

import pytest

from memvault import AgentMemory, EmbedderMismatchError, InMemoryBackend, MemoryConfig, MemoryStore

embeddings = pytest.importorskip("langchain.embeddings", reason="needs langchain (init_embeddings)")
from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402

SPEC = "openai:text-embedding-3-small"


@pytest.fixture
def asked(monkeypatch):
    """The model strings init_embeddings was called with."""
    calls = []

    def init_embeddings(model, **kwargs):
        calls.append(model)
        return DeterministicFakeEmbedding(size=32)

    monkeypatch.setattr(embeddings, "init_embeddings", init_embeddings)
    return calls


def test_provider_string_is_built_by_init_embeddings_and_named_by_itself(asked):
    store = MemoryStore(embedder=" OpenAI : text-embedding-3-small ", backend=InMemoryBackend())
    assert asked == [SPEC]
    assert (store.embedder.name, store.embedder.dim) == (SPEC, 32)
    store.put(("users", "alice"), "tea", {"text": "Alice drinks green tea"})
    assert [i.key for i in store.search(("users",), query="Alice drinks green tea")] == ["tea"]


def test_a_store_written_with_a_string_reopens_with_it(asked, tmp_path):
    with MemoryStore(tmp_path, embedder=SPEC) as store:
        store.put(("a",), "k", {"text": "kept"})
    with MemoryStore(tmp_path, embedder=SPEC) as store:
        assert store.get(("a",), "k").text == "kept"
    with pytest.raises(EmbedderMismatchError, match=SPEC):
        MemoryStore(tmp_path, embedder="hashing:32")


def test_a_memory_config_takes_the_same_strings(asked):
    memory = AgentMemory.from_config(MemoryConfig.parse({"path": ":memory:", "embedder": SPEC}))
    assert memory.store.embedder.name == SPEC and asked == [SPEC]
