"""Another process's single ``put`` waits at most a second (p99) while one process writes
30,000 memories in one ``put_many``, on the record file (default store folder, Chroma index
included) and on Postgres; afterwards both counts are exact.

Issue 28 measured a single put waiting 18.8 s behind such a write on the record file (it had
applied the bulk's 30,000 records to Chroma itself), and the write failed on Postgres (one
advisory lock per key: "out of shared memory"). The probe puts one memory at a time, 20 ms
apart, from before the bulk write starts until it has closed; only the puts that overlap the
bulk write count. ``bench/bulk_writers.py`` is the same measurement at any size.
"""

import json
import statistics
import time

import pytest

from tests.core.processes import finish, next_report, run, spawn
from tests.postgres import fresh_schema

pytestmark = pytest.mark.slow  # about 30 s each on 2 busy cores, most of it Chroma's / HNSW's

ITEMS = 30_000
PAUSE = 0.02

OPEN = """
import json, sys, time
from pathlib import Path
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import report, wait_for_go

def open_store(where):
    where = json.loads(where)
    if "folder" in where:
        return MemoryStore(where["folder"], embedder=HashingEmbedder(where["dim"]))
    from memvault.backends.postgres import PostgresBackend
    backend = PostgresBackend(where["dsn"], schema=where["schema"])
    return MemoryStore(backend=backend, embedder=HashingEmbedder(where["dim"]))
"""

BULK = (
    OPEN
    + """
where, items, barrier = sys.argv[1], int(sys.argv[2]), sys.argv[3]
store = open_store(where)
texts = [f"bulk note {n} about w{n % 997} and v{n % 89}" for n in range(items)]
batch = [(f"b-{n}", {"text": text}) for n, text in enumerate(texts)]
wait_for_go(barrier, "bulk")
start = time.time()
store.put_many(("bulk",), batch)
store.close()
report(start=start, end=time.time())
"""
)

PROBE = (
    OPEN
    + """
where, pause, stop = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3])
store = open_store(where)
store.put(("probe",), "warm-up", {"text": "probe warm-up"})
report(ready=True)
times, n = [], 0
while not stop.exists():
    began = time.time()
    store.put(("probe",), f"p-{n}", {"text": f"probe note {n}"})
    times.append((began, time.time() - began))
    n += 1
    time.sleep(pause)
report(times=times, count=store.count(("probe",)), puts=n + 1)
store.close()
"""
)

COUNT = (
    OPEN
    + """
store = open_store(sys.argv[1])
report(bulk=store.count(("bulk",)), probe=store.count(("probe",)))
"""
)


def probe_beside_bulk(where: str, tmp_path):
    """Run the bulk write and the probe; return the probe's latencies during it and counts."""
    stop = tmp_path / "stop"
    probe = spawn(PROBE, where, PAUSE, stop, stderr=tmp_path / "probe.log")
    bulk = spawn(BULK, where, ITEMS, tmp_path, stderr=tmp_path / "bulk.log")
    try:
        assert next_report(probe) == {"ready": True}
        while not (tmp_path / "ready-bulk").exists():
            assert bulk.poll() is None, "the bulk writer died before its start"
            time.sleep(0.01)
        time.sleep(0.5)  # a few puts before
        (tmp_path / "go").touch()
        written = next_report(bulk)
    finally:
        stop.touch()
    (probed,) = finish(probe, timeout=120)
    finish(bulk, timeout=120)
    during = sorted(
        seconds
        for began, seconds in probed["times"]
        if began + seconds >= written["start"] and began <= written["end"]
    )
    counts = run(COUNT, where, stderr=tmp_path / "count.log")
    return during, probed, counts


def check(during, probed, counts):
    assert len(during) >= 50, f"only {len(during)} puts overlapped the bulk write"
    p99 = during[int(0.99 * (len(during) - 1))]
    figures = {
        "puts": len(during),
        "p50": round(statistics.median(during), 3),
        "p99": round(p99, 3),
        "max": round(during[-1], 3),
    }
    assert p99 <= 1.0, figures
    assert counts == {"bulk": ITEMS, "probe": probed["puts"]}, (counts, figures)
    assert probed["count"] == probed["puts"]


def test_a_single_put_beside_a_bulk_write_in_a_store_folder(tmp_path):
    where = json.dumps({"folder": str(tmp_path / "store"), "dim": 64})
    check(*probe_beside_bulk(where, tmp_path))


def test_a_single_put_beside_a_bulk_write_on_postgres(tmp_path, postgres_dsn):
    # 16 dimensions: the HNSW index's inserts are most of the bulk write's time on Postgres,
    # and the point is the locks, not the index.
    where = json.dumps({"dsn": postgres_dsn, "schema": fresh_schema(), "dim": 16})
    check(*probe_beside_bulk(where, tmp_path))
