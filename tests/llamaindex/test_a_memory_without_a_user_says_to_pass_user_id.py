"""A LlamaIndex memory built without ``user_id`` for a template that needs one says to pass
``user_id=`` (not the LangChain adapter's "run's context or config")."""

import pytest
from llama_index.memory.memvault import MemvaultMemory, memvault_memory

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import InvalidNamespaceError


@pytest.mark.parametrize(
    "build",
    [
        lambda store: MemvaultMemory.from_defaults(store=store, user_id=None),
        lambda store: memvault_memory(store),
    ],
    ids=["from_defaults", "memvault_memory"],
)
def test_no_user_id_says_pass_user_id(build):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(32))
    with pytest.raises(InvalidNamespaceError) as raised:
        build(store)
    message = str(raised.value)
    assert "needs 'user_id': pass user_id=" in message
    assert "run's context" not in message
