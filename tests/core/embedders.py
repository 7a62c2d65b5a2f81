"""An embedder for the tests that count what is embedded."""

from __future__ import annotations

import pytest

from memvault import HashingEmbedder


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder (64-d unless told), keeping each call's texts in ``calls``.

    It embeds as ``HashingEmbedder`` of its dimension does (the same name and output), so it
    opens a store that one wrote.
    """

    def __init__(self, dim: int = 64) -> None:
        super().__init__(dim)
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed and record the texts."""
        self.calls.append(list(texts))
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        """Embed and record the query (as a call of one text)."""
        self.calls.append([text])
        return super().embed_query(text)

    @property
    def texts(self) -> list[str]:
        """Every text embedded, in order."""
        return [text for call in self.calls for text in call]


def counting_every_store(monkeypatch: pytest.MonkeyPatch) -> CountingEmbedder:
    """A counting embedder every store opened in this test embeds with, the CLI's too."""
    counting = CountingEmbedder()
    monkeypatch.setattr("memvault.store.resolve_embedder", lambda spec: counting)
    return counting
