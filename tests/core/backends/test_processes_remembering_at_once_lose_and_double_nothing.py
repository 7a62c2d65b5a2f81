"""Two processes that ``remember`` at the same moment, in one user's namespace, lose nothing and
double nothing, on the record file and on Postgres.

Each process says the same SHARED facts and facts of its own, one ``remember`` at a time, after a
start barrier. Afterwards each shared fact is one memory mentioned twice (a merge lost to a race
would leave it mentioned once; a race of two adds would leave two memories), each own fact one
memory mentioned once, and every shared memory's history is one ``add`` and one ``merge``.
``remember`` reads, merges and writes with ``put(..., if_updated_at=...)`` and reads again on a
conflict (``memvault.compare_and_set``).
"""

import pytest

from tests.core.processes import finish, release, run, spawn
from tests.postgres import fresh_schema

pytestmark = pytest.mark.slow  # processes: once, on the main Python (.ci/run)

SHARED = 40
OWN = 20
WRITERS = 2

OPEN = """
import sys
from memvault import HashingEmbedder, MemoryStore, PostgresBackend

def open_store(where, schema):
    embedder = HashingEmbedder(64)
    if schema == "-":
        return MemoryStore(where, embedder=embedder)
    return MemoryStore(backend=PostgresBackend(where, schema=schema), embedder=embedder)
"""

WRITER = (
    OPEN
    + """
from memvault import AgentMemory
from tests.core.processes import phrase, report, wait_for_go

where, schema, name, shared, own, barrier = sys.argv[1:7]
store = open_store(where, schema)
scope = AgentMemory(store).scope(user_id="ada")
wait_for_go(barrier, name)
said = [phrase("shared", n) for n in range(int(shared))]
said += [phrase(name, n) for n in range(int(own))]
for text in said:
    scope.remember(text)
store.close()
report(said=len(said))
"""
)

CHECK = (
    OPEN
    + """
import json
from tests.core.processes import report

where, schema = sys.argv[1:3]
store = open_store(where, schema)
ns = ("users", "ada")
items = store.search(ns, limit=1000)
by_text = {}
for item in items:
    by_text.setdefault(item.text, []).append(item.value.get("mentions"))
shared = [item for item in items if item.text.startswith("shared")]
histories = sorted({"/".join(e.event for e in store.history(ns, i.key)) for i in shared})
report(count=store.count(ns), by_text=by_text, histories=histories)
"""
)


def remember_at_once(tmp_path, where, schema):
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    run(
        OPEN + "open_store(sys.argv[1], sys.argv[2]).close()\nprint('@@ {}')",
        where,
        schema,
        stderr=tmp_path / "create.log",
    )
    writers = [
        spawn(WRITER, where, schema, f"w{w}", SHARED, OWN, barrier, stderr=tmp_path / f"w{w}.log")
        for w in range(WRITERS)
    ]
    release(barrier, writers)
    for writer in writers:
        assert finish(writer) == [{"said": SHARED + OWN}]
    return run(CHECK, where, schema, stderr=tmp_path / "check.log")


def check(found):
    from tests.core.processes import phrase

    expected = {phrase("shared", n): [WRITERS] for n in range(SHARED)}
    expected.update({phrase(f"w{w}", n): [1] for w in range(WRITERS) for n in range(OWN)})
    lost = sorted(t for t, m in found["by_text"].items() if len(m) == 1 and m != expected.get(t))
    doubled = sorted(t for t, m in found["by_text"].items() if len(m) > 1)
    assert (lost, doubled) == ([], [])
    assert found["by_text"] == expected
    assert found["count"] == SHARED + WRITERS * OWN
    assert found["histories"] == ["add/merge"]


def test_on_the_record_file(tmp_path):
    check(remember_at_once(tmp_path, tmp_path / "store", "-"))


def test_on_postgres(tmp_path, postgres_dsn):
    check(remember_at_once(tmp_path, postgres_dsn, fresh_schema()))
