"""A single ``put`` in one process while another process runs a large ``put_many``.

Issue 28: an agent that saves a turn while ``memvault ingest`` or an import loads a history
must not stall. Two processes share one store:

- the **bulk** process opens the store, then writes ``--items`` memories in one ``put_many``
  (namespace ``("bulk",)``, ``HashingEmbedder(64)``), and closes it;
- the **probe** process opens the same store and puts one memory at a time (namespace
  ``("probe",)``, a new key each time, ``--pause`` seconds between puts) from before the bulk
  write starts until after it ends, timing each put.

It prints, per store and per code tree: the bulk throughput (items/s from the ``put_many``
call to the end of ``close``, so with every record in the Chroma index too; and the times of
each), the probe's put latency while the bulk write ran (p50, p99, max, how
many) and the counts after (both must be exact).

Stores: ``file`` is the default store folder (record file and Chroma index;
``MemoryStore(folder)``): the bulk ``put_many`` fills the outbox, and the outbox is applied to
Chroma by whichever write finds it full (``DRAIN_AT``) and the folder lock free, and at close;
``postgres`` is ``PostgresBackend`` on an embedded PostgreSQL server (``tests/postgres.py``)
started by this script.

``--alone`` runs the bulk process alone, for its throughput without the probe's puts beside
it (beside a probe, today's bulk write stalls the probe, which then adds no work).

``--code DIR`` runs the children on another checkout's ``src`` (e.g. ``/work/main`` for today's
figures); give it several times to compare, each run on the same machine in one go.

Usage:
    uv run python bench/bulk_writers.py --items 30000
    uv run python bench/bulk_writers.py --items 200000 --code . --code /work/main
    uv run python bench/bulk_writers.py --items 30000 --stores postgres
    uv run python bench/bulk_writers.py --items 30000 --alone --code . --code /work/main
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARK = "@@ "

OPEN = """
import sys, json
sys.path.insert(0, sys.argv[1] + "/src")
sys.path.insert(1, REPO)
from memvault import HashingEmbedder, MemoryStore

DIM = int(sys.argv[-1])  # spawn() passes the embedding's dimensions last

def open_store(kind, where):
    if kind == "file":
        return MemoryStore(where, embedder=HashingEmbedder(DIM))
    from memvault.backends.postgres import PostgresBackend
    dsn, schema = where.rsplit(" ", 1)
    return MemoryStore(backend=PostgresBackend(dsn, schema=schema), embedder=HashingEmbedder(DIM))

def report(**fields):
    print("@@ " + json.dumps(fields), flush=True)
"""

BULK = """
import time
from pathlib import Path
kind, where, items, go = sys.argv[2], sys.argv[3], int(sys.argv[4]), Path(sys.argv[5])
store = open_store(kind, where)
texts = [f"bulk note {n} about w{n % 997} and v{n % 89}" for n in range(items)]
batch = [(f"b-{n}", {"text": text}) for n, text in enumerate(texts)]
report(ready=True)
while not go.exists():
    time.sleep(0.005)
start = time.time()
store.put_many(("bulk",), batch)
written = time.time()
count = store.count(("bulk",))
store.close()
report(start=start, written=written, closed=time.time(), count=count)
"""

PROBE = """
import time
from pathlib import Path
kind, where, pause, stop = sys.argv[2], sys.argv[3], float(sys.argv[4]), Path(sys.argv[5])
store = open_store(kind, where)
store.put(("probe",), "warm-up", {"text": "probe warm-up"})
report(ready=True)
times = []
n = 0
while not stop.exists():
    began = time.time()
    store.put(("probe",), f"p-{n}", {"text": f"probe note {n}"})
    times.append((began, time.time() - began))
    n += 1
    time.sleep(pause)
count = store.count(("probe",))
store.close()
report(times=times, count=count, puts=n + 1, chroma="chromadb" in sys.modules)
"""


class ChildFailed(Exception):
    """A child exited before its report; the message is the end of its stderr."""


def spawn(script: str, code: Path, *args: object, log: Path, dim: int) -> subprocess.Popen:
    """``python -c`` of ``OPEN`` + ``script`` on the checkout ``code``, stderr to ``log``.

    ``dim`` (the ``HashingEmbedder``'s dimensions) goes last on the command line.
    """
    source = textwrap.dedent(OPEN).replace("REPO", repr(str(REPO))) + textwrap.dedent(script)
    with open(log, "w") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-c", source, str(code), *map(str, args), str(dim)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    child.log = log  # type: ignore[attr-defined]
    return child


def next_report(child: subprocess.Popen) -> dict:
    """The child's next ``@@`` line, decoded; :class:`ChildFailed` if it exits first."""
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    child.wait()
    lines = Path(child.log).read_text(errors="replace").strip().splitlines()  # type: ignore[attr-defined]
    raise ChildFailed(lines[-1][:300] if lines else f"status {child.returncode}")


def alone(kind: str, where: str, code: Path, items: int, work: Path, dim: int = 64) -> dict:
    """One bulk write with no other process (its throughput, for the comparison)."""
    go = work / "go"
    go.touch()
    bulk = spawn(BULK, code, kind, where, items, go, log=work / "bulk.log", dim=dim)
    next_report(bulk)
    done = next_report(bulk)
    bulk.wait()
    return {
        "store": kind,
        "code": str(code),
        "items": items,
        "alone": True,
        "put_many s": round(done["written"] - done["start"], 2),
        "close s": round(done["closed"] - done["written"], 2),
        "items/s": round(items / (done["closed"] - done["start"])),
        "counts exact": done["count"] == items,
    }


def run(
    kind: str, where: str, code: Path, items: int, pause: float, work: Path, dim: int = 64
) -> dict:
    """One bulk write beside one probe; returns the figures.

    Args:
        kind: ``"file"`` (a store folder) or ``"postgres"``.
        where: The folder, or ``"DSN SCHEMA"``.
        code: The checkout whose ``src`` the children run.
        items: Memories in the bulk ``put_many``.
        pause: Seconds between the probe's puts.
        work: A folder for the children's logs and signal files.
        dim: The ``HashingEmbedder``'s dimensions.

    Returns:
        The figures printed (``"bulk write failed"`` and its reason when the bulk write failed).
    """
    stop, go = work / "stop", work / "go"
    stop.unlink(missing_ok=True)
    go.unlink(missing_ok=True)
    probe = spawn(PROBE, code, kind, where, pause, stop, log=work / "probe.log", dim=dim)
    bulk = spawn(BULK, code, kind, where, items, go, log=work / "bulk.log", dim=dim)
    next_report(probe)
    next_report(bulk)
    time.sleep(1.0)  # the probe's latencies before the bulk write, for p50 "otherwise"
    go.touch()
    try:
        done = next_report(bulk)
    except ChildFailed as failed:
        stop.touch()
        probe.wait()
        return {"store": kind, "code": str(code), "items": items, "bulk write failed": str(failed)}
    time.sleep(1.0)
    stop.touch()
    probed = next_report(probe)
    bulk.wait()
    probe.wait()
    during = [
        seconds
        for began, seconds in probed["times"]
        if began + seconds >= done["start"] and began <= done["closed"]
    ]
    before = [seconds for began, seconds in probed["times"] if began + seconds < done["start"]]
    during.sort()
    return {
        "store": kind,
        "code": str(code),
        "items": items,
        "put_many s": round(done["written"] - done["start"], 2),
        "close s": round(done["closed"] - done["written"], 2),
        "items/s": round(items / (done["closed"] - done["start"])),
        "probe puts during": len(during),
        "probe p50 ms": round(1000 * statistics.median(during), 1) if during else None,
        "probe p99 ms": round(1000 * during[int(0.99 * (len(during) - 1))], 1) if during else None,
        "probe max ms": round(1000 * during[-1], 1) if during else None,
        "probe p50 before ms": round(1000 * statistics.median(before), 1) if before else None,
        "bulk count": done["count"],
        "probe count": probed["count"],
        "counts exact": done["count"] == items and probed["count"] == probed["puts"],
        "probe started chroma": probed["chroma"],
        "slowest probes at s": [
            round(began - done["start"], 2)
            for began, seconds in sorted(probed["times"], key=lambda t: -t[1])[:3]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=30_000)
    parser.add_argument("--stores", default="file,postgres", help="file, postgres, or both")
    parser.add_argument("--code", type=Path, action="append", help="checkout(s) to run")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between probe puts")
    parser.add_argument("--alone", action="store_true", help="no probe: throughput alone")
    parser.add_argument("--dim", type=int, default=64, help="HashingEmbedder dimensions")
    args = parser.parse_args()
    codes = [path.resolve() for path in (args.code or [REPO])]
    work = Path(tempfile.mkdtemp(prefix="memvault-bulk-"))
    server = None
    try:
        for kind in args.stores.split(","):
            if kind == "postgres" and server is None:
                sys.path.insert(0, str(REPO))
                from tests.postgres import start_server

                server, dsn = start_server(work)
            for number, code in enumerate(codes):
                if kind == "file":
                    where = str(work / f"store-{number}-{time.time_ns()}")
                else:
                    where = f"{dsn} bulk_{number}_{time.time_ns()}"
                if args.alone:
                    figures = alone(kind, where, code, args.items, work, args.dim)
                else:
                    figures = run(kind, where, code, args.items, args.pause, work, args.dim)
                print(json.dumps(figures), flush=True)
    finally:
        if server is not None:
            server.cleanup()  # type: ignore[attr-defined]
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
