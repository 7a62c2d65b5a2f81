"""The default embedder is real all-MiniLM-L6-v2, loaded from installed packages, never fetched."""

import importlib.metadata

import numpy as np
import pytest

from memvault import MiniLMEmbedder
from memvault.errors import EmbedderUnavailableError
from memvault.minilm import locate_model


def test_vectors_are_384_unit_and_semantic():
    embedder = MiniLMEmbedder()
    docs = np.array(
        embedder.embed_documents(
            [
                "My dog is called Rex.",
                "I go hiking in the Alps every summer.",
                "Paris is in France.",
            ]
        )
    )
    assert docs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    query = np.array(embedder.embed_query("What is the name of my pet?"))
    assert int(np.argmax(docs @ query)) == 0
    mountains = np.array(embedder.embed_query("mountain walks during the holidays"))
    assert int(np.argmax(docs @ mountains)) == 1


def test_batch_padding_does_not_change_vectors():
    embedder = MiniLMEmbedder()
    alone = np.array(embedder.embed_query("short text"))
    batched = np.array(embedder.embed_documents(["short text", "a much longer text " * 20]))[0]
    assert float(alone @ batched) > 0.9999


def test_long_text_is_truncated_not_rejected():
    vector = MiniLMEmbedder().embed_query("word " * 2000)
    assert len(vector) == 384


def test_model_file_is_verified_and_comes_from_packages(monkeypatch):
    monkeypatch.delenv("MEMVAULT_MODEL_DIR", raising=False)
    model, tokenizer = locate_model()
    assert model.name == "model.onnx" and tokenizer.name == "tokenizer.json"
    assert "site-packages" in str(model)


def test_model_dir_without_files_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMVAULT_MODEL_DIR", str(tmp_path))
    with pytest.raises(EmbedderUnavailableError, match="model.onnx and tokenizer.json"):
        locate_model()


def test_onnxruntime_is_a_release_without_telemetry():
    major, minor = map(int, importlib.metadata.version("onnxruntime").split(".")[:2])
    assert (major, minor) < (1, 29)  # 1.29+ make DNS lookups for a telemetry host at import
