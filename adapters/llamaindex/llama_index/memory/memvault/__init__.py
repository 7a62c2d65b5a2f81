"""memvault long-term memory for LlamaIndex.

- :class:`MemvaultMemoryBlock`: a ``BaseMemoryBlock`` recalling memories into ``Memory``.
- :class:`MemvaultMemory` (``MemvaultMemory.from_defaults(store=... | path=..., user_id=...)``)
  / :func:`memvault_memory`: a ``Memory`` that stores every finished turn.
- :class:`MemvaultToolSpec`: remember / recall / forget / list_memories agent tools.
- :class:`MemvaultRetriever`: a ``BaseRetriever`` over a memory.
- :class:`MemvaultEmbedding`: memvault's offline embedder as a ``BaseEmbedding``.

Each takes a :class:`memvault.AgentMemory` (the policy: namespace template, ``k``, filter,
extractor, name) or a :class:`memvault.MemoryStore` to build one with; the number of memories
recalled is then ``similarity_top_k``, as in LlamaIndex's retrievers.
"""

from llama_index.memory.memvault.block import DEFAULT_NAMESPACE, MemvaultMemoryBlock
from llama_index.memory.memvault.embedding import MemvaultEmbedding
from llama_index.memory.memvault.memory import MemvaultMemory, memvault_memory
from llama_index.memory.memvault.retriever import MemvaultRetriever
from llama_index.memory.memvault.tools import MemvaultToolSpec

__all__ = [
    "DEFAULT_NAMESPACE",
    "MemvaultEmbedding",
    "MemvaultMemory",
    "MemvaultMemoryBlock",
    "MemvaultRetriever",
    "MemvaultToolSpec",
    "memvault_memory",
]
