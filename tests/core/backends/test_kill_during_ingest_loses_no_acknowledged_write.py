"""A process killed with SIGKILL at a random moment of a long ingest loses no write it was told
had succeeded, and leaves a store whose parts agree.

Each of RUNS runs copies a store of SEED memories (so that a search of the whole store covers
more than 2,000), starts a child that writes to it (single ``put`` calls and ``put_many``
batches of up to 50, in turn) and prints every key once the call that wrote it returned, and
SIGKILLs the child after a random delay. Then a fresh process reopens each store and checks:
every acknowledged key is there with its value; the batch that was being written when the
child died is there entirely or not at all; ``count()`` equals the number of items
``export_jsonl`` writes; and a dense, a lexical and a hybrid search for the text of the last
acknowledged item and of a random one find it in the top 10.
"""

import json
import os
import random
import shutil
import signal
import threading
import time

import pytest

from tests.core.processes import MARK, run, spawn, tail

pytestmark = pytest.mark.slow

RUNS = 10
SEED = 2_100
MAX_DELAY = 3.0  # seconds of writing before the kill, at most

SEED_STORE = """
import sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import phrase, report

store = MemoryStore(sys.argv[1], embedder=HashingEmbedder(64))
seed = int(sys.argv[2])
for start in range(0, seed, 500):
    numbers = range(start, min(start + 500, seed))
    store.put_many(("seed",), [(f"seed-{n}", {"text": phrase("seed", n)}) for n in numbers])
store.close()
report(count=seed)
"""

INGEST = """
import random, sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import phrase, report

folder, label = sys.argv[1], sys.argv[2]
rng = random.Random(label)
store = MemoryStore(folder, embedder=HashingEmbedder(64))
report(opened=True)
n = 0
while True:
    size = 1 if n % 2 == 0 else rng.randint(2, 50)
    batch = [(f"{label}-{m}", {"text": phrase(label, m), "n": m}) for m in range(n, n + size)]
    report(trying=[key for key, _ in batch])
    if size == 1:
        store.put(("ingest",), *batch[0])
    else:
        store.put_many(("ingest",), batch)
    report(acked=[key for key, _ in batch])
    n += size
"""

CHECK = """
import json, sys, tempfile
from pathlib import Path
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import error_name, phrase, report

results = {}
for run in json.loads(open(sys.argv[1], encoding="utf-8").read()):
    folder, label, acked, torn, probes = (
        run["folder"], run["label"], run["acked"], run["torn"], run["probes"]
    )
    seen = {"errors": []}
    try:
        store = MemoryStore(folder, embedder=HashingEmbedder(64))
    except Exception as error:
        results[label] = {"open": error_name(error)}
        continue
    number = lambda key: int(key.rsplit("-", 1)[1])
    seen["lost"] = [
        key for key in acked
        if (item := store.get(("ingest",), key)) is None
        or item.value != {"text": phrase(label, number(key)), "n": number(key)}
    ]
    present = [key for key in torn if store.get(("ingest",), key) is not None]
    seen["torn batch partly written"] = 0 < len(present) < len(torn)
    export = Path(tempfile.mkdtemp()) / "export.jsonl"
    exported = store.export_jsonl(export)
    lines = sum('"kind": "history"' not in line for line in export.read_text().splitlines())
    seen["count == exported"] = store.count() == exported == lines
    seen["misses"] = []
    for key in probes:
        for mode in ("dense", "lexical", "hybrid"):
            try:
                hits = store.search((), query=phrase(label, number(key)), mode=mode, limit=10)
                if key not in [hit.key for hit in hits]:
                    seen["misses"].append(f"{mode}: {key}")
            except Exception as error:
                seen["errors"].append(error_name(error))
    store.close()
    results[label] = seen
report(results=results)
"""


def kill_at_random(folder, label, delay, log):
    """Run INGEST on ``folder``, SIGKILL it ``delay`` seconds after it opened the store.

    Returns:
        The keys acknowledged, and the keys of the write under way at the kill (if any).
    """
    child = spawn(INGEST, folder, label, stderr=log)
    lines, opened = [], threading.Event()

    def read():
        for line in child.stdout:
            lines.append(line)
            if line.startswith(MARK + '{"opened"'):
                opened.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert opened.wait(120), f"the ingest never opened the store:\n{tail(child)}"
        time.sleep(delay)
        assert child.poll() is None, f"the ingest died by itself:\n{tail(child)}"
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
        child.wait()
    reader.join(30)
    acked, trying = [], []
    for line in lines:
        if not (line.startswith(MARK) and line.endswith("\n")):  # cut by the kill
            continue
        report = json.loads(line[len(MARK) :])
        acked += report.get("acked", [])
        trying = report.get("trying", trying)
    torn = [] if set(trying) <= set(acked) else trying
    return acked, torn


def test_sigkill_during_an_ingest_loses_no_acknowledged_write(tmp_path):
    template = tmp_path / "template"
    run(SEED_STORE, template, SEED, stderr=tmp_path / "seed.log")
    rng = random.Random(5)
    runs = []
    for number in range(RUNS):
        folder, label = tmp_path / f"store-{number}", f"run{number}"
        shutil.copytree(template, folder)
        delay = rng.uniform(0.0, MAX_DELAY)
        acked, torn = kill_at_random(folder, label, delay, tmp_path / f"{label}.log")
        probes = [acked[-1], rng.choice(acked)] if acked else []
        runs.append(
            {
                "folder": str(folder),
                "label": label,
                "acked": acked,
                "torn": torn,
                "probes": probes,
                "delay": round(delay, 2),
            }
        )
    assert sum(len(r["acked"]) for r in runs) > 0, "no run acknowledged a write"

    plan = tmp_path / "runs.json"  # too long for a command line
    plan.write_text(json.dumps(runs), encoding="utf-8")
    results = run(CHECK, plan, stderr=tmp_path / "check.log", timeout=600)["results"]
    healthy = {
        "errors": [],
        "lost": [],
        "torn batch partly written": False,
        "count == exported": True,
        "misses": [],
    }
    unhealthy = {
        f"{r['label']} (killed after {r['delay']} s, {len(r['acked'])} acknowledged)": found
        for r in runs
        if (found := results[r["label"]]) != healthy
    }
    assert unhealthy == {}
