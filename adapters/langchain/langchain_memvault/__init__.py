"""memvault long-term memory for LangChain and LangGraph.

The tools, the middleware and the retriever are thin LangChain shapes over one
:class:`memvault.AgentMemory` (pass one, or a store it is built from): the memory policy
(what a turn stores, how recall dedupes, how memories are rendered and forgotten) is the
core's, the same as in the LlamaIndex adapter.

With ``langchain-core`` alone: :class:`MemvaultKVStore`, :class:`MemvaultRetriever`,
:func:`create_memory_tools`, :class:`MemvaultEmbeddings`. With the ``agents`` extra
(``langchain`` and ``langgraph``): :class:`MemoryMiddleware` and
:class:`MemvaultLangGraphStore`, imported on first use.
"""

from __future__ import annotations

from typing import Any

from langchain_memvault.embeddings import MemvaultEmbeddings
from langchain_memvault.kv_store import MemvaultKVStore
from langchain_memvault.retriever import MemvaultRetriever, memory_document
from langchain_memvault.tools import (
    ForgetTool,
    ListMemoriesTool,
    MemoryTool,
    RecallTool,
    RememberTool,
    create_memory_tools,
)

_AGENT_PARTS = {
    "MemoryMiddleware": "langchain_memvault.middleware",
    "MemvaultLangGraphStore": "langchain_memvault.graph_store",
}

__all__ = [
    "ForgetTool",
    "ListMemoriesTool",
    "MemoryMiddleware",
    "MemoryTool",
    "MemvaultEmbeddings",
    "MemvaultKVStore",
    "MemvaultLangGraphStore",
    "MemvaultRetriever",
    "RecallTool",
    "RememberTool",
    "create_memory_tools",
    "memory_document",
]


def __getattr__(name: str) -> Any:
    """Import the agent parts lazily, so ``langchain-core`` users need no ``langgraph``."""
    if name in _AGENT_PARTS:
        import importlib

        try:
            module = importlib.import_module(_AGENT_PARTS[name])
        except ImportError as error:
            raise ImportError(
                f"{name} needs langchain and langgraph: pip install 'langchain-memvault[agents]'"
            ) from error
        return getattr(module, name)
    raise AttributeError(f"module 'langchain_memvault' has no attribute {name!r}")
