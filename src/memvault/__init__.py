"""memvault: long-term, cross-session memory for LLM agents.

A namespaced memory store with semantic search, persistent on Chroma by default, embedding
offline with all-MiniLM-L6-v2 (:class:`MemoryStore`), and the agent-memory layer both
framework adapters are built on (:class:`AgentMemory`).
"""

from memvault.agent_memory import (
    AgentMemory,
    MemoryChange,
    MemoryScope,
    amemory_context,
    memory_context,
)
from memvault.backends.base import Backend, VectorIndex
from memvault.backends.chroma import ChromaBackend, ChromaIndex
from memvault.backends.chroma_server import ChromaServerBackend
from memvault.backends.local import LocalBackend
from memvault.backends.memory import InMemoryBackend
from memvault.backends.postgres import PostgresBackend  # psycopg is imported when one is made
from memvault.background import IngestionStats
from memvault.config import DEFAULT_NAMESPACE, DEFAULT_SIMILARITY_THRESHOLD, MemoryConfig
from memvault.context import DEFAULT_MEMORY_HEADER, format_memories
from memvault.embedding import (
    DEFAULT_EMBEDDER,
    Embedder,
    FunctionEmbedder,
    HashingEmbedder,
    as_embedder,
    resolve_embedder,
)
from memvault.errors import (
    BackendError,
    BackendUnavailableError,
    EmbedderError,
    EmbedderMismatchError,
    EmbedderUnavailableError,
    ExtractionError,
    ImportFormatError,
    InvalidArgumentError,
    InvalidFilterError,
    InvalidKeyError,
    InvalidNamespaceError,
    InvalidValueError,
    MemvaultError,
    MemvaultWarning,
    ReconciliationError,
    StoreBusyError,
    StoreClosedError,
    StoreDamagedError,
)
from memvault.extraction import DEFAULT_EXTRACTION_PROMPT, FactExtractor, parse_facts
from memvault.items import MemoryItem
from memvault.memory_tools import MEMORY_TOOLS, MemoryToolSpec, arun_memory_tool, run_memory_tool
from memvault.minilm import MiniLMEmbedder
from memvault.model import HistoryEntry, Namespace, Record
from memvault.namespace import (
    format_namespace_path,
    parse_namespace_path,
    resolve_namespace,
)
from memvault.reconcile import (
    DEFAULT_RECONCILIATION_PROMPT,
    DEFAULT_TURN_PROMPT,
    Decision,
    Reconciler,
)
from memvault.statements import memory_key, normalize_text
from memvault.store import NOT_GIVEN, MemoryStore

__all__ = [
    "DEFAULT_EMBEDDER",
    "resolve_embedder",
    "AgentMemory",
    "MemoryChange",
    "MemoryScope",
    "Reconciler",
    "Decision",
    "DEFAULT_RECONCILIATION_PROMPT",
    "DEFAULT_TURN_PROMPT",
    "ReconciliationError",
    "MemoryConfig",
    "IngestionStats",
    "DEFAULT_NAMESPACE",
    "DEFAULT_SIMILARITY_THRESHOLD",
    "MEMORY_TOOLS",
    "MemoryToolSpec",
    "arun_memory_tool",
    "run_memory_tool",
    "memory_key",
    "normalize_text",
    "DEFAULT_EXTRACTION_PROMPT",
    "DEFAULT_MEMORY_HEADER",
    "NOT_GIVEN",
    "Backend",
    "BackendError",
    "BackendUnavailableError",
    "ChromaBackend",
    "ChromaIndex",
    "ChromaServerBackend",
    "EmbedderError",
    "LocalBackend",
    "PostgresBackend",
    "MemvaultWarning",
    "StoreBusyError",
    "StoreClosedError",
    "StoreDamagedError",
    "VectorIndex",
    "Embedder",
    "EmbedderMismatchError",
    "EmbedderUnavailableError",
    "ExtractionError",
    "FactExtractor",
    "FunctionEmbedder",
    "HashingEmbedder",
    "HistoryEntry",
    "ImportFormatError",
    "InMemoryBackend",
    "InvalidArgumentError",
    "InvalidFilterError",
    "InvalidKeyError",
    "InvalidNamespaceError",
    "InvalidValueError",
    "MemoryItem",
    "MemoryStore",
    "MemvaultError",
    "MiniLMEmbedder",
    "Namespace",
    "Record",
    "amemory_context",
    "as_embedder",
    "format_memories",
    "format_namespace_path",
    "memory_context",
    "parse_facts",
    "parse_namespace_path",
    "resolve_namespace",
]
