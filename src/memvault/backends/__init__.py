"""Where a store keeps its memories: the :class:`Backend` protocol and the backends that ship.

- :class:`ChromaBackend` (the default): a folder, a SQLite record file with an embedded Chroma
  index; :class:`InMemoryBackend`: the same record file in memory (tests, throwaway use);
- :class:`ChromaServerBackend`: a shared Chroma server; :class:`PostgresBackend`: a shared
  PostgreSQL database with pgvector.

The building blocks a backend of your own uses are here too: :class:`Backend`,
:class:`VectorIndex`, :class:`LocalBackend` (a record file with any vector index),
:class:`~memvault.model.Record`, :func:`with_records`. Each backend's module is imported when
its name is first used, so a program that uses one backend loads no other.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from memvault.backends.base import Backend, VectorIndex, with_records
from memvault.model import Record

if TYPE_CHECKING:
    from memvault.backends.chroma import ChromaBackend, ChromaIndex
    from memvault.backends.chroma_server import ChromaServerBackend
    from memvault.backends.local import LocalBackend
    from memvault.backends.memory import InMemoryBackend
    from memvault.backends.postgres import PostgresBackend

__all__ = [
    "Backend",
    "ChromaBackend",
    "ChromaIndex",
    "ChromaServerBackend",
    "InMemoryBackend",
    "LocalBackend",
    "PostgresBackend",
    "Record",
    "VectorIndex",
    "with_records",
]

_MODULES = {
    "ChromaBackend": "memvault.backends.chroma",
    "ChromaIndex": "memvault.backends.chroma",
    "ChromaServerBackend": "memvault.backends.chroma_server",
    "InMemoryBackend": "memvault.backends.memory",
    "LocalBackend": "memvault.backends.local",
    "PostgresBackend": "memvault.backends.postgres",
}


def __getattr__(name: str) -> Any:
    """A backend class, imported from its module at first use; or a module of this package.

    Raises:
        AttributeError: For a name this package does not hold.
    """
    module = _MODULES.get(name)
    if module is None:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module 'memvault.backends' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
