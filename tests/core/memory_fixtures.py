"""Agent memories for the tests: in memory, with the real offline embedder or the hashing one."""

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore


def hashing_memory(**options) -> AgentMemory:
    """An AgentMemory over an in-memory store with the deterministic hashing embedder."""
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    return AgentMemory(store, **options)


def minilm_memory(**options) -> AgentMemory:
    """An AgentMemory over an in-memory store with the default MiniLM embedder."""
    return AgentMemory(MemoryStore(backend=InMemoryBackend()), **options)
