"""A long-lived process that searches a store sees what another process writes to the same
folder: its next searches, in every mode, succeed and find the new memories within BOUND
seconds, every time.

Process A opens a new store, writes SEED memories of its own (more than 2,000, so that a search
of the whole store is not answered from a small namespace alone) and searches in every mode.
Then, twice, a process B writes memories to the same folder and exits, and A polls: each of B's
memories must be found, by its own text, in the top 10 of a dense, a lexical and a hybrid
search of B's namespace and of the whole store, and by ``get`` and ``count``.
"""

import json
import subprocess

import pytest

from tests.core.processes import finish, next_report, run, spawn

pytestmark = pytest.mark.slow  # processes: once, on the main Python (.ci/run)

BOUND = 5.0  # seconds from B's exit until A finds every one of B's writes in every mode
SEED = 2_100
MODES = ("dense", "lexical", "hybrid")

SEARCHER = """
import json, sys, time
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import error_name, phrase, report

folder, seed, bound = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
MODES = ("dense", "lexical", "hybrid")
store = MemoryStore(folder, embedder=HashingEmbedder(64))
mine = [(f"seed-{i}", {"text": phrase("seed", i)}) for i in range(seed)]
for start in range(0, seed, 500):
    store.put_many(("users", "alice"), mine[start : start + 500])
errors = []


def missing(namespace, key, text):
    # What does not find (namespace, key) yet: "get", "count" is checked by the caller, and
    # one entry per mode and scope; errors are collected, never raised.
    lost = []
    try:
        item = store.get(tuple(namespace), key)
        if item is None or item.value["text"] != text:
            lost.append("get")
    except Exception as error:
        errors.append(error_name(error))
        lost.append("get")
    for scope in (tuple(namespace), ()):
        for mode in MODES:
            try:
                hits = store.search(scope, query=text, mode=mode, limit=10)
                if key not in [hit.key for hit in hits]:
                    lost.append(f"{mode} in {scope}")
            except Exception as error:
                errors.append(error_name(error))
                lost.append(f"{mode} in {scope}")
    return lost


# Search in every mode before anyone else writes, as a running agent would have.
assert not missing(["users", "alice"], "seed-7", phrase("seed", 7)), "A cannot find its own"
report(ready=True, errors=errors)
for line in sys.stdin:  # one round a line: B's memories, [[namespace, key, text], ...]
    wanted, expected = json.loads(line)
    errors.clear()
    start = time.monotonic()
    while True:
        lost = {key: missing(ns, key, text) for ns, key, text in wanted}
        lost = {key: what for key, what in lost.items() if what}
        try:
            counted = store.count(("users", "bob"))
        except Exception as error:
            errors.append(error_name(error))
            counted = None
        if (not lost and counted == expected) or time.monotonic() - start > bound:
            break
        time.sleep(0.1)
    report(
        seconds=round(time.monotonic() - start, 2),
        missing=lost,
        count=counted,
        errors=sorted(set(errors)),
        error_count=len(errors),
    )
"""

WRITER = """
import sys
from memvault import HashingEmbedder, MemoryStore
from tests.core.processes import phrase, report

folder, first = sys.argv[1], int(sys.argv[2])
store = MemoryStore(folder, embedder=HashingEmbedder(64))
bob = ("users", "bob")
numbers = range(first, first + 10)
written = []
for n in numbers[:5]:  # one by one
    store.put(bob, f"bob-{n}", {"text": phrase("bob", n)})
    written.append([list(bob), f"bob-{n}", phrase("bob", n)])
store.put_many(bob, [(f"bob-{n}", {"text": phrase("bob", n)}) for n in numbers[5:]])
written += [[list(bob), f"bob-{n}", phrase("bob", n)] for n in numbers[5:]]
store.close()
report(written=written)
"""


def test_a_searching_process_finds_what_another_process_writes(tmp_path):
    store = tmp_path / "store"
    searcher = spawn(
        SEARCHER, store, SEED, BOUND, stdin=subprocess.PIPE, stderr=tmp_path / "searcher.log"
    )
    try:
        ready = next_report(searcher)
        assert ready == {"ready": True, "errors": []}
        for round, first in enumerate((0, 10), 1):
            log = tmp_path / f"writer-{round}.log"
            written = run(WRITER, store, first, stderr=log)["written"]
            searcher.stdin.write(json.dumps([written, first + 10]) + "\n")
            searcher.stdin.flush()
            seen = next_report(searcher)
            assert seen["errors"] == [], f"round {round}: A's reads failed: {seen}"
            assert seen["missing"] == {}, f"round {round}: not found within {BOUND} s: {seen}"
            assert seen["count"] == first + 10, f"round {round}: {seen}"
        finish(searcher, timeout=60)
    finally:
        if searcher.poll() is None:
            searcher.kill()
            searcher.wait()
