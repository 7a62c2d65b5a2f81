"""A process killed with SIGKILL while it writes leaves history and records in step: the
history of each key ends with the value the store holds, holds every acknowledged write, and
each entry's `before` is the previous entry's `after` (a write and its history rows are one
transaction)."""

import os
import random
import signal
import time

import pytest

from tests.core.processes import run, spawn, tail

pytestmark = pytest.mark.slow

WRITE = """
import sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import report

store = MemoryStore(sys.argv[1], embedder=HashingEmbedder(64))
n = 0
while True:
    key = f"k{n % 5}"
    if n % 7 == 6:
        store.delete(("h",), key, source="tool")
    else:
        store.put(("h",), key, {"text": f"value {n}"}, source="tool")
    report(acked=n)
    n += 1
"""

CHECK = """
import sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import report

with MemoryStore(sys.argv[1], embedder=HashingEmbedder(64)) as store:
    found = {}
    for k in range(5):
        item = store.get(("h",), f"k{k}")
        found[f"k{k}"] = {
            "value": None if item is None else item.value,
            "history": [[e.event, e.before, e.after] for e in store.history(("h",), f"k{k}")],
        }
report(found=found)
"""


def test_sigkill_leaves_history_and_records_in_step(tmp_path):
    child = spawn(WRITE, tmp_path / "store", stderr=tmp_path / "write.log")
    acked = -1
    deadline = time.monotonic() + 120
    stop_after = random.Random(os.getpid()).randint(40, 120)
    for line in child.stdout:
        if '"acked"' in line:
            acked += 1
        if acked >= stop_after or time.monotonic() > deadline:
            break
    assert acked >= 0, tail(child)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    found = run(CHECK, tmp_path / "store", stderr=tmp_path / "check.log")["found"]
    texts = set()
    for key, state in found.items():
        history = state["history"]
        after = None
        for event, before, new in history:
            assert before == after, f"{key}: {history}"
            assert (event in ("delete", "expire")) == (new is None), f"{key}: {history}"
            after = new
            if new is not None:
                texts.add(new["text"])
        assert after == state["value"], f"{key}: the history ends elsewhere than the record"
    puts = [n for n in range(acked + 1) if n % 7 != 6]
    assert {f"value {n}" for n in puts} <= texts
