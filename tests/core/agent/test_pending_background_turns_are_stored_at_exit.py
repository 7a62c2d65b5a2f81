"""A script that hands turns to the background worker and exits without flush() still stores
them: the exit hook drains the worker before the store's own exit hook applies the writes to
Chroma's index and closes it. Turns the worker has not finished within EXIT_TIMEOUT are stored
raw (the user's statements), with a warning."""

import subprocess
import sys

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from tests.core.processes import REPO
from tests.core.slow_llms import fact_of

SCRIPT = """
import sys
import memvault.background
from memvault import AgentMemory, FactExtractor, HashingEmbedder, MemoryStore
from memvault.firewall import screen
from tests.core.slow_llms import SlowLLM

screen("warm up")  # the firewall's classifier loads its model once, before the timed part
folder, seconds, exit_timeout = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
memvault.background.EXIT_TIMEOUT = exit_timeout
store = MemoryStore(folder, embedder=HashingEmbedder(64))
memory = AgentMemory(store, extractor=FactExtractor(SlowLLM(seconds)), background=True)
alice = memory.scope(user_id="alice")
for n in range(4):
    alice.save_turns([{"role": "user", "content": f"I own {n} bicycles."}])
assert memory.ingestion.pending == 4
"""


def run(folder, seconds: float, exit_timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, str(folder), str(seconds), str(exit_timeout)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def stored(folder) -> tuple[set[str], MemoryStore]:
    store = MemoryStore(backend=ChromaBackend(folder), embedder=HashingEmbedder(64))
    return {item.text for item in store.search(("users", "alice"), limit=100)}, store


def test_pending_turns_are_extracted_and_reach_the_index_at_exit(tmp_path):
    run(tmp_path, seconds=0.3, exit_timeout=30)

    texts, store = stored(tmp_path)
    assert texts == {fact_of(f"I own {n} bicycles.") for n in range(4)}
    assert store.backend.records.outbox_size() == 0  # drained before the store's exit hook
    assert store.backend.index.count() == 4
    store.close()


def test_turns_not_reached_within_the_exit_timeout_are_stored_raw(tmp_path):
    result = run(tmp_path, seconds=0.4, exit_timeout=0.6)

    texts, store = stored(tmp_path)
    store.close()
    assert fact_of("I own 0 bicycles.") in texts  # done before the deadline
    for n in (1, 2, 3):  # running or waiting then: their statements, stored at exit
        assert f"I own {n} bicycles." in texts
    assert "stored 3 raw turn(s)" in result.stderr
