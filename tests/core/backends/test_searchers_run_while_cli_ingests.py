"""Processes that keep searching a store while ``memvault ingest`` writes 1,000 turns into it
see no error, and afterwards the store holds every turn and finds them in every mode.

The store (default embedder, as the CLI uses) first gets SEED memories of its own, so that a
search of the whole store covers more than 2,000 memories; then WORKERS processes search it in
a loop (dense, lexical and hybrid in turn, in the ingest namespace and in the whole store, with
a pause of 50 ms between searches) while the CLI, in another process, ingests a conversation
of TURNS messages, ten to a timestamp (so the CLI writes them ten at a time, in 100 writes).
Afterwards a fresh process counts the turns and searches for SAMPLES of them by their text.
"""

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from tests.core.processes import REPO, finish, next_report, phrase, run, spawn

pytestmark = pytest.mark.slow

SEED = 2_000
TURNS = 1_000
WORKERS = 4
SAMPLES = 60

SEED_STORE = """
import sys
from memvault import MemoryStore
from tests.core.processes import report

store = MemoryStore(sys.argv[1])
seed = int(sys.argv[2])
for start in range(0, seed, 250):
    numbers = range(start, min(start + 250, seed))
    store.put_many(("seed",), [(f"seed-{n}", {"text": f"seed memory number {n}"}) for n in numbers])
report(count=store.count())
store.close()
"""

WORKER = """
import random, sys, time
from pathlib import Path
from memvault import MemoryStore
from tests.core.processes import error_name, phrase, report

folder, name, stop = sys.argv[1], sys.argv[2], Path(sys.argv[3])
store = MemoryStore(folder)
rng = random.Random(name)
report(ready=True)
searches, errors = 0, []
rounds = [(scope, mode) for scope in (("chat",), ()) for mode in ("dense", "lexical", "hybrid")]
while not stop.exists():  # one search at a time, modes and scopes in turn, 20 a second at most
    n = rng.randrange(1000)
    query = rng.choice([f"seed memory number {n}", phrase("turn", n, 3)])
    scope, mode = rounds[searches % len(rounds)]
    try:
        store.search(scope, query=query, mode=mode, limit=10)
    except Exception as error:
        errors.append(error_name(error))
    searches += 1
    time.sleep(0.05)
report(searches=searches, errors=sorted(set(errors)), error_count=len(errors))
"""

CHECK = """
import json, sys
from memvault import MemoryStore
from tests.core.processes import error_name, report

store = MemoryStore(sys.argv[1])
samples = json.loads(sys.argv[2])
result = {"count": store.count(("chat",)), "errors": []}
for mode in ("dense", "lexical", "hybrid"):
    for scope in (("chat",), ()):
        missed = []
        for key, text in samples:
            try:
                hits = store.search(scope, query=text, mode=mode, limit=10)
            except Exception as error:
                result["errors"].append(error_name(error))
                continue
            if key not in [hit.key for hit in hits]:
                missed.append(key)
        result[f"{mode} in {scope}"] = missed
report(**result)
"""


def conversation(path):
    """A chat of TURNS messages, ten a minute (so the CLI writes ten at a time); returns the
    texts in order."""
    start = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    texts = [phrase("turn", n, 3) for n in range(TURNS)]
    messages = [
        {
            "role": "user" if n % 2 == 0 else "assistant",
            "content": text,
            "timestamp": (start + timedelta(minutes=n // 10)).isoformat(),
        }
        for n, text in enumerate(texts)
    ]
    path.write_text(json.dumps(messages, indent=1))
    return texts


def test_searching_workers_see_no_error_while_the_cli_ingests(tmp_path):
    store, stop = tmp_path / "store", tmp_path / "stop"
    chat = tmp_path / "chat.json"
    texts = conversation(chat)
    seeded = run(SEED_STORE, store, SEED, stderr=tmp_path / "seed.log")
    assert seeded == {"count": SEED}

    workers = [
        spawn(WORKER, store, f"w{w}", stop, stderr=tmp_path / f"worker-{w}.log")
        for w in range(WORKERS)
    ]
    try:
        for worker in workers:
            assert next_report(worker) == {"ready": True}
        ingest = subprocess.run(
            [sys.executable, "-m", "memvault", "ingest", str(chat), "-n", "chat"]
            + ["--path", str(store), "--json"],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=600,
        )
    finally:
        stop.touch()
        reports = [finish(worker, timeout=120) for worker in workers]
    assert ingest.returncode == 0, ingest.stderr
    assert json.loads(ingest.stdout)["ingested"] == TURNS

    searches = sum(outcome["searches"] for (outcome,) in reports)
    worker_errors = {
        f"w{w}": f"{outcome['error_count']} of {outcome['searches']}: {outcome['errors']}"
        for w, (outcome,) in enumerate(reports)
        if outcome["error_count"]
    }

    source = json.loads(ingest.stdout)["source"]
    samples = [(f"{source}:{n + 1}", texts[n]) for n in range(0, TURNS, TURNS // SAMPLES)]
    after = run(CHECK, store, json.dumps(samples), stderr=tmp_path / "check.log")
    modes = ("dense", "lexical", "hybrid")
    assert searches > 0
    seen = {"worker errors": worker_errors, **after}
    # The whole store (3,000 records, above EXACT_SCOPE) is searched densely through Chroma's
    # approximate HNSW index, whose recall is not 1: allow 2 of the samples to rank below 10
    # there (seen once in CI: 1 of 60). Every other mode and scope is exact.
    approximate = seen.pop("dense in ()")
    assert len(approximate) <= 2, approximate
    seen["dense in ()"] = []
    assert seen == {
        "worker errors": {},
        "count": TURNS,
        "errors": [],
        **{f"{mode} in {scope}": [] for mode in modes for scope in (("chat",), ())},
    }, seen
