"""An erase while another process has the same store folder open, its Chroma client started
and the erased memory read, leaves that process's store working: its next searches go through
the index, find the other memories and never the erased one, and its writes land; once both
have closed, the text is in no file of the folder.
"""

import subprocess

import pytest

from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from tests.core.processes import finish, next_report, spawn

pytestmark = pytest.mark.slow  # processes: once, on the main Python (.ci/run)

NS = ("users", "alice")
SECRET = "Alice was diagnosed with hepatitis zebrafinch"
OTHERS = 12

READER = """
import sys
from memvault import ChromaBackend, HashingEmbedder, MemoryStore
from tests.core.processes import report

NS = ("users", "alice")
store = MemoryStore(backend=ChromaBackend(sys.argv[1], exact_scope=0), embedder=HashingEmbedder(64))


def keys(query, mode):
    return [hit.key for hit in store.search(NS, query=query, mode=mode, limit=20)]


report(before=keys("hepatitis zebrafinch", "dense")[:1])
sys.stdin.readline()  # the other process erased
report(
    dense=keys("note 7 about garden 1", "dense")[:1],
    hybrid=keys("note 7 about garden 1", "hybrid")[:1],
    erased_found="health" in keys("hepatitis zebrafinch", "dense") + keys("zebrafinch", "hybrid"),
    count=store.count(NS),
)
store.put(NS, "later", {"text": "a later note about the garden shed"})
report(later=keys("later note about the garden shed", "dense")[:1])
store.close()
"""


def open_store(path):
    return MemoryStore(backend=ChromaBackend(path, exact_scope=0), embedder=HashingEmbedder(64))


def test_an_erase_beside_an_open_process_leaves_it_working_and_no_text(tmp_path):
    folder = tmp_path / "store"
    store = open_store(folder)
    store.put_many(
        NS, [(f"note-{n}", {"text": f"note {n} about garden {n % 3}"}) for n in range(OTHERS)]
    )
    store.put(NS, "health", {"text": SECRET})
    store.backend.drain()
    reader = spawn(READER, folder, stdin=subprocess.PIPE, stderr=tmp_path / "reader.log")
    try:
        assert next_report(reader) == {"before": ["health"]}

        store.delete(NS, "health", erase=True)
        reader.stdin.write("go\n")
        reader.stdin.flush()
        assert next_report(reader) == {
            "dense": ["note-7"],
            "hybrid": ["note-7"],
            "erased_found": False,
            "count": OTHERS,
        }
        assert next_report(reader) == {"later": ["later"]}
    finally:
        finish(reader)
    store.close()

    for path in (p for p in folder.rglob("*") if p.is_file()):
        assert b"zebrafinch" not in path.read_bytes(), path
    again = open_store(folder)
    assert again.backend.index.count() == OTHERS + 1
    again.close()
