"""Processes that open the same brand-new store folder at the same moment all succeed: first
opens may race. Each of ROUNDS rounds starts PROCESSES processes at a start barrier; each opens
a folder that does not exist yet, writes one memory and closes. Every process must succeed, and
a fresh process must then find every memory of every round.
"""

import json

import pytest

from tests.core.processes import finish, release, run, spawn

pytestmark = pytest.mark.slow  # processes: once, on the main Python (.ci/run)

ROUNDS = 8
PROCESSES = 2

OPEN_AND_PUT = """
import sys
import chromadb  # loaded before the barrier, so that the opens themselves start together
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import error_name, phrase, report, wait_for_go

folder, name = sys.argv[1], sys.argv[2]
wait_for_go(sys.argv[3], name)
try:
    store = MemoryStore(folder, embedder=HashingEmbedder(64))
    store.put(("users", name), "first", {"text": phrase(name, 0)})
    store.close()
except Exception as error:
    report(error=error_name(error))
else:
    report(error=None)
"""

CHECK = """
import json, sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import phrase, report

found = {}
for folder in json.loads(sys.argv[1]):
    store = MemoryStore(folder, embedder=HashingEmbedder(64))
    names = [ns[1] for ns in store.list_namespaces(prefix=("users",))]
    got = [
        name for name in names
        if (item := store.get(("users", name), "first")) is not None
        and item.value == {"text": phrase(name, 0)}
    ]
    found[folder] = {"count": store.count(), "got": sorted(got)}
    store.close()
report(found=found)
"""


def test_processes_that_create_one_new_store_at_once_all_succeed(tmp_path):
    failures, folders = [], []
    for round in range(ROUNDS):
        barrier = tmp_path / f"barrier-{round}"
        barrier.mkdir()
        folder = tmp_path / f"store-{round}"
        folders.append(str(folder))
        children = [
            spawn(OPEN_AND_PUT, folder, f"p{p}", barrier, stderr=barrier / f"p{p}.log")
            for p in range(PROCESSES)
        ]
        release(barrier, children)
        for p, child in enumerate(children):
            (outcome,) = finish(child, timeout=120)
            if outcome["error"]:
                failures.append(f"round {round}, process {p}: {outcome['error']}")
    total = ROUNDS * PROCESSES
    assert failures == [], f"{len(failures)} of {total} opens failed:\n" + "\n".join(failures)

    found = run(CHECK, json.dumps(folders), stderr=tmp_path / "check.log")["found"]
    everyone = sorted(f"p{p}" for p in range(PROCESSES))
    assert found == {folder: {"count": PROCESSES, "got": everyone} for folder in folders}
