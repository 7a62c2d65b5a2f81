"""Embedder strings: "minilm" is the default, "hashing:<dim>" the test embedder, and every
string that cannot be resolved is a typed error that says what to install or write."""

import sys

import pytest

from memvault import HashingEmbedder, InMemoryBackend, InvalidArgumentError, MemoryStore
from memvault.embedding import resolve_embedder
from memvault.errors import EmbedderUnavailableError


def test_minilm_is_the_default():
    default = MemoryStore(backend=InMemoryBackend()).embedder
    assert default.name == resolve_embedder("minilm").name == "all-MiniLM-L6-v2-int8"
    assert default.dim == 384


def test_hashing_string_is_the_hashing_embedder():
    embedder = resolve_embedder("hashing:48")
    assert isinstance(embedder, HashingEmbedder) and embedder.name == "memvault-hashing-48"


@pytest.mark.parametrize("spec", ["word2vec", "minilm:big", "hashing:", "hashing:x", ":model"])
def test_unknown_string_lists_what_is_accepted(spec):
    with pytest.raises(
        InvalidArgumentError, match="'minilm'.*'hashing:<dim>'.*'<provider>:<model>'"
    ):
        MemoryStore(embedder=spec, backend=InMemoryBackend())


def test_without_langchain_the_error_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain.embeddings", None)  # import fails
    with pytest.raises(EmbedderUnavailableError, match="package 'langchain'"):
        MemoryStore(embedder="openai:text-embedding-3-small", backend=InMemoryBackend())


def test_without_the_providers_package_the_error_names_it(monkeypatch):
    pytest.importorskip("langchain.embeddings", reason="needs langchain (init_embeddings)")
    monkeypatch.setitem(sys.modules, "langchain_openai", None)  # as if not installed
    with pytest.raises(EmbedderUnavailableError, match="pip install langchain-openai"):
        MemoryStore(embedder="openai:text-embedding-3-small", backend=InMemoryBackend())


def test_a_provider_langchain_does_not_know_is_an_invalid_argument(tmp_path):
    pytest.importorskip("langchain.embeddings", reason="needs langchain (init_embeddings)")
    with pytest.raises(InvalidArgumentError, match="embedder 'nosuch:model'.*not supported"):
        MemoryStore(tmp_path / "store", embedder="nosuch:model")
    assert not (tmp_path / "store").exists()
