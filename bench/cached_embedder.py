"""One embedding per distinct text per run, shared by memvault and every peer system."""

from __future__ import annotations

import numpy as np

from memvault.minilm import MiniLMEmbedder


class CachedEmbedder:
    """MiniLM (memvault's default embedder) behind a per-run cache of text -> vector.

    It keeps MiniLM's ``name`` and ``dim``, so memvault treats it as the default embedder; each
    distinct text is embedded once per run, whichever system asks first.
    """

    def __init__(self, inner: MiniLMEmbedder | None = None) -> None:
        self.inner = inner or MiniLMEmbedder()
        self.name = self.inner.name
        self.dim = self.inner.dim
        self.cache: dict[str, np.ndarray] = {}

    def warm(self, texts: list[str]) -> None:
        """Embed every text not cached yet, in large batches."""
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            for text, vector in zip(missing, self.inner.embed_array(missing)):
                self.cache[text] = vector

    def array(self, texts: list[str]) -> np.ndarray:
        """Vectors of ``texts`` as a float32 array of shape ``(len(texts), dim)``."""
        self.warm(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.cache[t] for t in texts])

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.array(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.array([text])[0].tolist()
