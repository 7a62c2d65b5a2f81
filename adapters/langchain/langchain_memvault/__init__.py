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

import importlib
import importlib.metadata
import importlib.util
import re
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


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


__all__ = [
    "ForgetTool",
    "ListMemoriesTool",
    "MemoryTool",
    "MemvaultEmbeddings",
    "MemvaultKVStore",
    "MemvaultRetriever",
    "RecallTool",
    "RememberTool",
    "create_memory_tools",
    "memory_document",
    # ``import *`` takes the agent parts only where the ``agents`` extra is installed.
    *(_AGENT_PARTS if _installed("langchain") and _installed("langgraph") else ()),
]


def _agents_import_error(name: str, error: ImportError) -> ImportError:
    """An ImportError for agent part ``name`` that says what to install."""
    if isinstance(error, ModuleNotFoundError) and error.name:
        return ImportError(
            f"{name} needs the 'agents' extra, and {error.name.split('.')[0]!r} is not installed: "
            "pip install 'langchain-memvault[agents]'"
        )
    needed = [
        requirement.split(";")[0].strip()
        for requirement in importlib.metadata.requires("langchain-memvault") or []
        if re.search(r"extra\s*==\s*['\"]agents['\"]", requirement)
    ]
    installed = []
    for package in (
        re.split(r"[\s<>=!~\[(]", requirement, maxsplit=1)[0] for requirement in needed
    ):
        try:
            installed.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            installed.append(f"{package} (not installed)")
    return ImportError(
        f"{name} cannot be imported ({error}): it needs {', '.join(needed)}; installed are "
        f"{', '.join(installed)}: pip install --upgrade 'langchain-memvault[agents]'"
    )


def __getattr__(name: str) -> Any:
    """Import the agent parts lazily, so ``langchain-core`` users need no ``langgraph``.

    Raises:
        ImportError: If the ``agents`` extra is missing (naming the missing module) or its
            installed versions are too old (naming the versions needed and installed).
        AttributeError: For any other unknown name.
    """
    if name in _AGENT_PARTS:
        try:
            module = importlib.import_module(_AGENT_PARTS[name])
        except ImportError as error:
            raise _agents_import_error(name, error) from error
        return getattr(module, name)
    raise AttributeError(f"module 'langchain_memvault' has no attribute {name!r}")
