"""Four processes writing to one Postgres database while two others search it lose nothing and
see no error: afterwards a fresh process counts and gets every memory and finds each one by its
own text in the top 10 of a dense, a hybrid and a lexical search.

Each writer puts PUTS memories, one ``put`` at a time, with keys of its own in one namespace,
and every tenth put also writes one key all writers share: the database serialises those
upserts, so that key's history is one ``add`` and then updates, each starting from the value
the one before left (no write lost, none read a stale version). The searchers run every mode
in turn until the writers are done. No lock files: the processes share only the server.
"""

import json

import pytest

from tests.core.processes import finish, next_report, release, spawn
from tests.postgres import fresh_schema

pytestmark = pytest.mark.slow  # 70 s on 2 cores, most of it checking 2,000 keys in 3 modes

PUTS = 500
WRITERS = 4
SEARCHERS = 2
SHARED_EVERY = 10

WRITER = """
import sys
from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.core.processes import phrase, report, wait_for_go

dsn, schema, name = sys.argv[1:4]
puts, every = int(sys.argv[4]), int(sys.argv[5])
store = MemoryStore(backend=PostgresBackend(dsn, schema=schema), embedder=HashingEmbedder(64))
wait_for_go(sys.argv[6], name)
for n in range(puts):
    store.put(("team", "notes"), f"{name}-{n}", {"text": phrase(name, n)})
    if n % every == 0:
        store.put(("team", "notes"), "shared", {"text": f"shared by {name} at {n}"})
store.close()
report(written=puts)
"""

SEARCHER = """
import sys
from pathlib import Path
from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.core.processes import error_name, phrase, report

dsn, schema, stop = sys.argv[1], sys.argv[2], Path(sys.argv[3])
store = MemoryStore(backend=PostgresBackend(dsn, schema=schema), embedder=HashingEmbedder(64))
report(ready=True)
searches, errors = 0, []
while not stop.exists():
    mode = ("dense", "lexical", "hybrid")[searches % 3]
    try:
        store.search(("team",), query=phrase("w0", searches % 500), mode=mode, limit=10)
    except Exception as error:
        errors.append(error_name(error))
    searches += 1
store.close()
report(searches=searches, errors=sorted(set(errors)))
"""

CHECK = """
import json, sys
from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from tests.core.processes import phrase, report

dsn, schema, puts = sys.argv[1], sys.argv[2], int(sys.argv[4])
writers = json.loads(sys.argv[3])
ns = ("team", "notes")
store = MemoryStore(backend=PostgresBackend(dsn, schema=schema), embedder=HashingEmbedder(64))
result = {"count": store.count(ns), "get_missing": []}
for w in writers:
    for n in range(puts):
        item = store.get(ns, f"w{w}-{n}")
        if item is None or item.value != {"text": phrase(f"w{w}", n)}:
            result["get_missing"].append(f"w{w}-{n}")
for mode in ("dense", "hybrid", "lexical"):
    misses = []
    for w in writers:
        for n in range(puts):
            hits = store.search(ns, query=phrase(f"w{w}", n), mode=mode, limit=10)
            if f"w{w}-{n}" not in [hit.key for hit in hits]:
                misses.append(f"w{w}-{n}")
    result[f"{mode}_missed"] = misses
result["shared"] = [[e.event, e.before, e.after] for e in store.history(ns, "shared")]
report(**result)
"""


def test_processes_write_and_search_one_database_and_lose_nothing(postgres_dsn, tmp_path):
    schema, barrier, stop = fresh_schema(), tmp_path / "barrier", tmp_path / "stop"
    barrier.mkdir()
    searchers = [
        spawn(SEARCHER, postgres_dsn, schema, stop, stderr=tmp_path / f"s{s}.log")
        for s in range(SEARCHERS)
    ]
    for searcher in searchers:
        assert next_report(searcher) == {"ready": True}
    writers = [
        spawn(
            WRITER,
            postgres_dsn,
            schema,
            f"w{w}",
            PUTS,
            SHARED_EVERY,
            barrier,
            stderr=tmp_path / f"w{w}.log",
        )
        for w in range(WRITERS)
    ]
    release(barrier, writers)
    for writer in writers:
        assert finish(writer) == [{"written": PUTS}]
    stop.touch()
    for searcher in searchers:
        (done,) = finish(searcher)
        assert done["errors"] == [], done["errors"]
        assert done["searches"] > 0

    checkers = [
        spawn(CHECK, postgres_dsn, schema, json.dumps(part), PUTS, stderr=tmp_path / f"c{c}.log")
        for c, part in enumerate([[0, 1], [2, 3]])
    ]
    found = [finish(checker)[-1] for checker in checkers]
    assert {f["count"] for f in found} == {WRITERS * PUTS + 1}
    for part in found:
        assert part["get_missing"] == []
        for mode in ("dense", "hybrid", "lexical"):
            assert part[f"{mode}_missed"] == [], f"{mode} search missed {part[f'{mode}_missed']}"
    # Ordered by `at`, each writer's clock, read before it waited for the key: check the chain
    # of values instead, which a lost or stale upsert would break.
    shared = found[0]["shared"]
    assert len(shared) == WRITERS * (PUTS // SHARED_EVERY)
    assert sorted(event for event, _, _ in shared) == ["add"] + ["update"] * (len(shared) - 1)
    following = {json.dumps(before): after for event, before, after in shared if before}
    (first,) = [after for event, _, after in shared if event == "add"]
    chain = [first]
    while json.dumps(chain[-1]) in following:
        chain.append(following.pop(json.dumps(chain[-1])))
    assert len(chain) == len(shared), "an upsert of the shared key read a stale version"
