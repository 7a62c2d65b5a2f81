"""Two processes writing to one store folder at the same time lose nothing: afterwards a fresh
process counts and gets every memory, and finds sampled ones by their own text in the top 10 of
a dense, a hybrid and a lexical search, without a single error.

Both writers open the (already created) store, wait at a start barrier, then put PUTS memories
each, one ``put`` at a time, with distinct keys in one namespace.
"""

import json
import random

import pytest

from tests.core.processes import finish, release, run, spawn

pytestmark = pytest.mark.slow  # 45 s on an idle 2-core machine, 2 min under load

PUTS = 1_200
WRITERS = 2
SAMPLES = 200
NS = ("team", "notes")

CREATE = """
import sys
from memvault import HashingEmbedder, MemoryStore
MemoryStore(sys.argv[1], embedder=HashingEmbedder(64)).close()
print("@@ {}", flush=True)
"""

WRITER = """
import sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import phrase, report, wait_for_go

folder, name, puts = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = MemoryStore(folder, embedder=HashingEmbedder(64))
wait_for_go(sys.argv[4], name)
for n in range(puts):
    store.put(("team", "notes"), f"{name}-{n}", {"text": phrase(name, n)})
store.close()
report(written=puts)
"""

CHECK = """
import json, sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import error_name, phrase, report

folder, writers, puts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
samples = json.loads(sys.argv[4])
ns = ("team", "notes")
store = MemoryStore(folder, embedder=HashingEmbedder(64))
result = {"count": store.count(ns), "count_all": store.count(), "get_missing": [], "errors": []}
for w in range(writers):
    for n in range(puts):
        item = store.get(ns, f"w{w}-{n}")
        if item is None or item.value != {"text": phrase(f"w{w}", n)}:
            result["get_missing"].append(f"w{w}-{n}")
errors = []
for mode in ("dense", "hybrid", "lexical"):
    misses = []
    for w, n in samples:
        key = f"w{w}-{n}"
        try:
            hits = store.search(ns, query=phrase(f"w{w}", n), mode=mode, limit=10)
        except Exception as error:
            errors.append(error_name(error))
            misses.append(key)
            continue
        if key not in [hit.key for hit in hits]:
            misses.append(key)
    result[f"{mode}_missed"] = misses
result["errors"] = sorted(set(errors))
result["error_count"] = len(errors)
report(**result)
"""


def test_two_processes_put_at_once_and_every_mode_finds_everything(tmp_path):
    store, barrier = tmp_path / "store", tmp_path / "barrier"
    barrier.mkdir()
    run(CREATE, store, stderr=tmp_path / "create.log")
    writers = [
        spawn(WRITER, store, f"w{w}", PUTS, barrier, stderr=tmp_path / f"w{w}.log")
        for w in range(WRITERS)
    ]
    release(barrier, writers)
    for writer in writers:
        assert finish(writer) == [{"written": PUTS}]

    rng = random.Random(9)
    samples = [(rng.randrange(WRITERS), rng.randrange(PUTS)) for _ in range(SAMPLES)]
    found = run(CHECK, store, WRITERS, PUTS, json.dumps(samples), stderr=tmp_path / "check.log")
    assert found["errors"] == [], f"{found['error_count']} searches failed: {found['errors']}"
    assert found["count"] == found["count_all"] == WRITERS * PUTS
    assert found["get_missing"] == []
    for mode in ("dense", "hybrid", "lexical"):
        assert found[f"{mode}_missed"] == [], f"{mode} search missed items"
