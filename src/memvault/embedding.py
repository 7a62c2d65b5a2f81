"""Embedders: the protocol the store needs, and adaptation of other libraries' embedders to it.

An embedder turns texts into vectors. memvault accepts, by duck typing and without importing any
framework:

- an object with ``name``, ``dim``, ``embed_documents`` and ``embed_query`` (this protocol);
- a LangChain ``Embeddings`` (``embed_documents`` / ``embed_query``);
- a LlamaIndex ``BaseEmbedding`` (``get_text_embedding_batch`` / ``get_query_embedding``);
- a Chroma ``EmbeddingFunction`` or any callable ``list[str] -> list[list[float]]``.

Or a string, which :func:`resolve_embedder` (the one place that reads embedder strings, for
``MemoryStore(embedder=...)`` and ``MemoryConfig``) turns into one: ``"minilm"`` (the default),
``"hashing:<dim>"`` (tests only), or ``"<provider>:<model>"`` through LangChain's
``init_embeddings``.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memvault.errors import EmbedderUnavailableError, InvalidArgumentError

DEFAULT_EMBEDDER = "minilm"
"""The embedder string of the default, offline all-MiniLM-L6-v2
(:class:`~memvault.minilm.MiniLMEmbedder`)."""


@runtime_checkable
class Embedder(Protocol):
    """What the store needs from an embedder.

    Attributes:
        name: Identifies the model; the store records it and refuses to be reopened with
            another (see :class:`~memvault.errors.EmbedderMismatchError`).
        dim: Length of every vector.
    """

    name: str
    dim: int

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts to store; returns shape ``(len(texts), dim)``."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """Embed a search query; returns shape ``(dim,)``."""
        ...


class FunctionEmbedder:
    """An :class:`Embedder` made of two functions, as the adapters of other libraries use.

    Args:
        embed_documents: ``list[str] -> list[list[float]]``, shape ``(n, dim)``.
        embed_query: ``str -> list[float]``, shape ``(dim,)``; defaults to embedding a batch of one.
        name: The model name recorded in the store.
        dim: The vector length; probed with one call when not given.
    """

    def __init__(
        self,
        embed_documents: Callable[[list[str]], Sequence[Sequence[float]]],
        embed_query: Callable[[str], Sequence[float]] | None = None,
        *,
        name: str,
        dim: int | None = None,
    ) -> None:
        self._embed_documents = embed_documents
        self._embed_query = embed_query or (lambda text: embed_documents([text])[0])
        self.name = name
        self.dim = dim if dim is not None else len(self.embed_query("dimension probe"))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns shape ``(len(texts), dim)``."""
        if not texts:
            return []
        return [[float(x) for x in vector] for vector in self._embed_documents(list(texts))]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; returns shape ``(dim,)``."""
        return [float(x) for x in self._embed_query(text)]


def _model_name(obj: Any) -> str:
    named = obj if hasattr(obj, "__qualname__") else type(obj)  # a function names itself
    kind = f"{named.__module__}.{named.__qualname__}"
    for attribute in ("model_name", "model", "model_id"):
        model = getattr(obj, attribute, None)
        if isinstance(model, str) and model:
            return f"{kind}:{model}"
    return kind


def as_embedder(obj: Any, *, name: str | None = None) -> Embedder:
    """Adapt an embedder of any supported kind (see the module docstring) to :class:`Embedder`.

    Args:
        obj: The embedder.
        name: Model name to record in the store; by default the class path plus its
            ``model_name``/``model`` attribute.

    Returns:
        ``obj`` itself if it already follows the protocol, else a :class:`FunctionEmbedder`.

    Raises:
        InvalidArgumentError: If ``obj`` is none of the supported kinds.
    """
    if isinstance(obj, Embedder) and isinstance(getattr(obj, "dim", None), int):
        return obj
    label = name or _model_name(obj)
    if hasattr(obj, "embed_documents") and hasattr(obj, "embed_query"):
        return FunctionEmbedder(obj.embed_documents, obj.embed_query, name=label)
    if hasattr(obj, "get_text_embedding_batch") and hasattr(obj, "get_query_embedding"):
        return FunctionEmbedder(obj.get_text_embedding_batch, obj.get_query_embedding, name=label)
    if callable(obj):
        chroma_name = getattr(obj, "name", None)
        if name is None and callable(chroma_name):
            with contextlib.suppress(Exception):  # a Chroma function without a registered name
                label = f"chroma:{chroma_name()}"
        return FunctionEmbedder(obj, name=label)
    raise InvalidArgumentError(
        f"embedder {type(obj).__name__} is not supported; pass an object with embed_documents/"
        "embed_query (LangChain), get_text_embedding_batch/get_query_embedding (LlamaIndex), "
        "or a callable list[str] -> list[list[float]] (Chroma EmbeddingFunction)"
    )


def resolve_embedder(embedder: Any = DEFAULT_EMBEDDER) -> Embedder:
    """Turn anything ``MemoryStore(embedder=...)`` accepts into an :class:`Embedder`.

    Args:
        embedder: One of:

            - ``"minilm"`` or ``None``: :class:`~memvault.minilm.MiniLMEmbedder`, offline
              all-MiniLM-L6-v2 (the default);
            - ``"hashing:<dim>"``: :class:`HashingEmbedder` of that dimension (tests only);
            - ``"<provider>:<model>"``, e.g. ``"openai:text-embedding-3-small"``: the model
              LangChain's ``init_embeddings`` builds (needs ``langchain`` and the provider's
              package, e.g. ``langchain-openai``; settings such as an API key come from the
              provider's environment variables). Its recorded name is the string itself, with
              the provider lower-cased, so the name does not change with LangChain's class
              paths; to reopen such a store with an embedder object, pass
              ``as_embedder(obj, name="<provider>:<model>")``;
            - any object :func:`as_embedder` adapts.

    Returns:
        The embedder.

    Raises:
        InvalidArgumentError: On an unknown string or provider, or an unsupported object.
        EmbedderUnavailableError: If ``langchain`` or the provider's package is not installed;
            the message names the package to install.
    """
    if embedder is None:
        embedder = DEFAULT_EMBEDDER
    if not isinstance(embedder, str):
        return as_embedder(embedder)
    kind, colon, model = (part.strip() for part in embedder.partition(":"))
    kind = kind.lower()
    if kind == DEFAULT_EMBEDDER and not colon:
        from memvault.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if kind == "hashing" and model.isdigit():
        return HashingEmbedder(int(model))
    if kind in (DEFAULT_EMBEDDER, "hashing") or not kind or not model:
        raise InvalidArgumentError(
            f"embedder {embedder!r} is not known; use 'minilm' (the default), 'hashing:<dim>' "
            "(tests only), or '<provider>:<model>' such as 'openai:text-embedding-3-small'"
        )
    return _langchain_embedder(f"{kind}:{model}")


def _langchain_embedder(spec: str) -> Embedder:
    try:
        from langchain.embeddings import init_embeddings
    except ImportError:
        raise EmbedderUnavailableError(
            f"embedder {spec!r} is built by LangChain's init_embeddings, but the package "
            "'langchain' (>= 0.3.9) is not installed; pip install langchain and the provider's "
            "package, or pass an embedder object"
        ) from None
    try:
        model = init_embeddings(spec)
    except ImportError as error:  # LangChain names the provider's package to install
        raise EmbedderUnavailableError(f"embedder {spec!r}: {error}") from None
    except ValueError as error:  # an unknown provider; LangChain lists the known ones
        raise InvalidArgumentError(f"embedder {spec!r}: {' '.join(str(error).split())}") from None
    return as_embedder(model, name=spec)


class HashingEmbedder:
    """A deterministic bag-of-words embedder, for tests only.

    Each lower-cased word is hashed (BLAKE2b) into one of ``dim`` signed buckets and the vector
    is L2-normalised (the feature-hashing trick, Weinberger et al., ICML 2009). Texts that share
    words get a positive cosine similarity; nothing is learned, so it is no semantic model.
    memvault never picks it by itself: pass it explicitly.

    Args:
        dim: Vector length, ``>= 8``.
    """

    def __init__(self, dim: int = 64) -> None:
        if dim < 8:
            raise InvalidArgumentError(f"HashingEmbedder dim must be >= 8, got {dim}")
        self.dim = dim
        self.name = f"memvault-hashing-{dim}"

    def _embed(self, text: str) -> list[float]:
        vector = np.zeros(self.dim)
        for word in re.findall(r"\w+", text.lower()):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dim
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        if norm == 0:
            vector[0] = 1.0
            norm = 1.0
        return (vector / norm).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts; returns shape ``(len(texts), dim)``."""
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query; returns shape ``(dim,)``."""
        return self._embed(text)
