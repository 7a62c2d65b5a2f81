"""A process killed with SIGKILL in the middle of a bulk ``put_many`` (its rows written, not
committed) leaves none of the batch visible, and a store that works: on the record file (store
folder) and on Postgres.

The child wraps the step that writes the batch's last rows (the record file's history rows,
Postgres's history rows: both after every record row of the batch) to report and then sleep,
so the kill lands inside the write's transaction. A fresh process then finds no record and no
history of the batch, writes one memory and finds it, and writes the whole batch again.
"""

import json
import os
import signal

import pytest

from tests.core.processes import next_report, run, spawn
from tests.postgres import fresh_schema

pytestmark = pytest.mark.slow

ITEMS = 2_000  # above the Postgres backend's BULK_KEYS: the write that takes no key locks

OPEN = """
import json, sys, time
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import report

def open_store(where):
    where = json.loads(where)
    if "folder" in where:
        return MemoryStore(where["folder"], embedder=HashingEmbedder(16))
    from memvault.backends.postgres import PostgresBackend
    backend = PostgresBackend(where["dsn"], schema=where["schema"])
    return MemoryStore(backend=backend, embedder=HashingEmbedder(16))

def batch(items):
    return [(f"b-{n}", {"text": f"bulk note {n} about w{n % 97}"}) for n in range(items)]
"""

KILLED = (
    OPEN
    + """
where, items = sys.argv[1], int(sys.argv[2])
store = open_store(where)
store.put(("probe",), "before", {"text": "written before the bulk write"})
if "folder" in json.loads(where):
    from memvault.backends.sqlite import rows as module
    name = "append_history_rows"
else:
    from memvault.backends.postgres import writes as module
    name = "_append_history"
original = getattr(module, name)

def stalled(*args, **kwargs):
    original(*args, **kwargs)
    report(inside=True)
    time.sleep(120)

setattr(module, name, stalled)
store.put_many(("bulk",), batch(items))
report(committed=True)
"""
)

AFTER = (
    OPEN
    + """
where, items = sys.argv[1], int(sys.argv[2])
store = open_store(where)
seen = {
    "bulk": store.count(("bulk",)),
    "history": sum(len(store.history(("bulk",), key)) for key, _ in batch(items)[:: items // 50]),
    "before": store.get(("probe",), "before") is not None,
}
store.put(("probe",), "after", {"text": "written after the kill"})
found = [item.key for item in store.search(("probe",), query="after the kill", limit=1)]
store.put_many(("bulk",), batch(items))
seen.update(found=found, again=store.count(("bulk",)), total=store.count())
store.close()
report(**seen)
"""
)


def kill_inside_the_write(where: str, tmp_path) -> dict:
    child = spawn(KILLED, where, ITEMS, stderr=tmp_path / "killed.log")
    try:
        assert next_report(child) == {"inside": True}
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    return run(AFTER, where, ITEMS, stderr=tmp_path / "after.log")


EXPECTED = {
    "bulk": 0,
    "history": 0,
    "before": True,
    "found": ["after"],
    "again": ITEMS,
    "total": ITEMS + 2,
}


def test_kill_inside_a_bulk_write_in_a_store_folder(tmp_path):
    where = json.dumps({"folder": str(tmp_path / "store")})
    assert kill_inside_the_write(where, tmp_path) == EXPECTED


def test_kill_inside_a_bulk_write_on_postgres(tmp_path, postgres_dsn):
    where = json.dumps({"dsn": postgres_dsn, "schema": fresh_schema()})
    assert kill_inside_the_write(where, tmp_path) == EXPECTED
