"""memvault: long-term, cross-session memory for LLM agents.

A namespaced memory store with semantic search, persistent on Chroma by default, embedding
offline with all-MiniLM-L6-v2 (:class:`MemoryStore`), and the agent-memory layer both
framework adapters are built on (:class:`AgentMemory`).

:data:`__all__` holds what an application calls. The building blocks live in their modules:
backends and their protocol in :mod:`memvault.backends`, every error in
:mod:`memvault.errors`, the memory tools in :mod:`memvault.memory_tools`, the prompts with the
code that sends them (:mod:`memvault.extraction`, :mod:`memvault.reconcile`). The names this
package exported before 0.2 still resolve here, with a :class:`DeprecationWarning` naming their
module.
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memvault.agent import (
        AgentMemory,
        MemoryChange,
        MemoryScope,
        amemory_context,
        memory_context,
    )
    from memvault.backends.chroma import ChromaBackend
    from memvault.backends.chroma_server import ChromaServerBackend
    from memvault.backends.memory import InMemoryBackend
    from memvault.backends.postgres import PostgresBackend
    from memvault.config import MemoryConfig
    from memvault.context import format_memories
    from memvault.embedding import Embedder, FunctionEmbedder, HashingEmbedder
    from memvault.errors import (
        BackendUnavailableError,
        ConflictError,
        EmbedderMismatchError,
        InvalidArgumentError,
        MemvaultError,
        MemvaultWarning,
        StoreBusyError,
    )
    from memvault.extraction import FactExtractor
    from memvault.items import MemoryItem
    from memvault.minilm import MiniLMEmbedder
    from memvault.model import HistoryEntry, Namespace
    from memvault.namespace import resolve_namespace
    from memvault.reconcile import Reconciler
    from memvault.statements import memory_key
    from memvault.store import MemoryStore

__all__ = [
    # the store
    "MemoryStore",
    "MemoryItem",
    "HistoryEntry",
    "Namespace",
    # where it keeps its memories
    "ChromaBackend",
    "InMemoryBackend",
    "ChromaServerBackend",
    "PostgresBackend",
    # how it embeds them
    "Embedder",
    "MiniLMEmbedder",
    "HashingEmbedder",
    "FunctionEmbedder",
    # an agent's memory
    "AgentMemory",
    "MemoryScope",
    "MemoryChange",
    "MemoryConfig",
    "FactExtractor",
    "Reconciler",
    "memory_context",
    "amemory_context",
    "format_memories",
    "resolve_namespace",
    "memory_key",
    # what can go wrong
    "MemvaultError",
    "InvalidArgumentError",
    "ConflictError",
    "EmbedderMismatchError",
    "StoreBusyError",
    "BackendUnavailableError",
    "MemvaultWarning",
]

_MOVED = {
    "memvault.arguments": ("NOT_GIVEN",),
    "memvault.backends": ("Backend", "ChromaIndex", "LocalBackend", "Record", "VectorIndex"),
    "memvault.background": ("IngestionStats",),
    "memvault.config": ("DEFAULT_NAMESPACE", "DEFAULT_SIMILARITY_THRESHOLD"),
    "memvault.context": ("DEFAULT_MEMORY_HEADER",),
    "memvault.embedding": ("DEFAULT_EMBEDDER", "as_embedder", "resolve_embedder"),
    "memvault.errors": (
        "BackendError",
        "EmbedderError",
        "EmbedderUnavailableError",
        "ExtractionError",
        "ImportFormatError",
        "InvalidFilterError",
        "InvalidKeyError",
        "InvalidNamespaceError",
        "InvalidValueError",
        "ItemNotFoundError",
        "ReconciliationError",
        "StoreClosedError",
        "StoreDamagedError",
    ),
    "memvault.extraction": ("DEFAULT_EXTRACTION_PROMPT", "parse_facts"),
    "memvault.memory_tools": (
        "MEMORY_TOOLS",
        "MemoryToolSpec",
        "arun_memory_tool",
        "run_memory_tool",
    ),
    "memvault.namespace": ("format_namespace_path", "parse_namespace_path"),
    "memvault.reconcile": ("DEFAULT_RECONCILIATION_PROMPT", "DEFAULT_TURN_PROMPT", "Decision"),
    "memvault.statements": ("normalize_text",),
}
_HOME = {name: module for module, names in _MOVED.items() for name in names}


_PUBLIC = {
    "memvault.agent": (
        "AgentMemory",
        "MemoryChange",
        "MemoryScope",
        "amemory_context",
        "memory_context",
    ),
    "memvault.backends.chroma": ("ChromaBackend",),
    "memvault.backends.chroma_server": ("ChromaServerBackend",),
    "memvault.backends.memory": ("InMemoryBackend",),
    "memvault.backends.postgres": ("PostgresBackend",),
    "memvault.config": ("MemoryConfig",),
    "memvault.context": ("format_memories",),
    "memvault.embedding": ("Embedder", "FunctionEmbedder", "HashingEmbedder"),
    "memvault.errors": (
        "BackendUnavailableError",
        "ConflictError",
        "EmbedderMismatchError",
        "InvalidArgumentError",
        "MemvaultError",
        "MemvaultWarning",
        "StoreBusyError",
    ),
    "memvault.extraction": ("FactExtractor",),
    "memvault.items": ("MemoryItem",),
    "memvault.minilm": ("MiniLMEmbedder",),
    "memvault.model": ("HistoryEntry", "Namespace"),
    "memvault.namespace": ("resolve_namespace",),
    "memvault.reconcile": ("Reconciler",),
    "memvault.statements": ("memory_key",),
    "memvault.store": ("MemoryStore",),
}
"""The module of each name in :data:`__all__` (imported as the ``TYPE_CHECKING`` block says)."""
_SOURCE = {name: module for module, names in _PUBLIC.items() for name in names}


def __getattr__(name: str) -> Any:
    """A name of :data:`__all__`, one this package exported before 0.2, or a module of it.

    A name of :data:`__all__` is imported at first use and kept; an older name comes with a
    deprecation warning naming its module; a module (``memvault.errors``) is imported, as
    ``import memvault`` did when it imported them all. Importing ``memvault`` imports none of
    its modules, so a program (the ``memvault`` command line, ``memvault --version``) loads
    only what it uses.

    Raises:
        AttributeError: For any other name.
    """
    public = _SOURCE.get(name)
    if public is not None:
        value = getattr(importlib.import_module(public), name)
        globals()[name] = value  # found directly from now on
        return value
    module = _HOME.get(name)
    if module is None:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module 'memvault' has no attribute {name!r}")
    warnings.warn(
        f"memvault.{name} is deprecated: import it from {module} (from {module} import {name})",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    """The module's names with :data:`__all__`, which are imported at first use."""
    return sorted({*globals(), *__all__})
