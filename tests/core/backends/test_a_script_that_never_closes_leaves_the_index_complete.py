"""A process that writes and exits without close() (a script, the CLI) still applies its
writes to Chroma's index at exit, so the index can rebuild a lost record file completely."""

import subprocess
import sys

from memvault import ChromaBackend, HashingEmbedder, MemoryStore

SCRIPT = """
import sys
from memvault import HashingEmbedder, MemoryStore
store = MemoryStore(sys.argv[1], embedder=HashingEmbedder(64))
store.put_many(("users", "alice"), [(f"k{n}", {"text": f"memory {n}"}) for n in range(30)])
store.delete(("users", "alice"), "k0")
"""


def test_writes_reach_the_index_at_exit(tmp_path):
    subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], check=True, timeout=120)
    store = MemoryStore(backend=ChromaBackend(tmp_path), embedder=HashingEmbedder(64))
    assert store.backend.records.outbox_size() == 0
    assert store.backend.index.count() == store.count() == 29
    store.close()
