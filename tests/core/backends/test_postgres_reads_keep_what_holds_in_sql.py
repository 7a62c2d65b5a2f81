"""Every read of the Postgres backend keeps, inside its SQL, the memories its validity admits:
recency lists, dense, lexical and hybrid searches, and the rankings a store fuses, by exact
scans and by the HNSW and GIN indexes alike, leave out a superseded memory now and find it as
of a time it held; and still do once psycopg has prepared their statements (one SQL text serves
a read of now and one ``as_of``)."""

import pytest

from memvault import HashingEmbedder, MemoryStore
from memvault.backends.postgres import PostgresBackend
from memvault.model import Validity, record_id
from memvault.testing.clock import FakeClock
from tests.postgres import fresh_schema

NS = ("users", "alice")
THEN = 3_000.0
"""When Alice still ate meat (she turned vegetarian at 5,000)."""


@pytest.mark.parametrize("exact_scope", [2_000, 0], ids=["exact", "indexes"])
def test_reads_leave_out_what_no_longer_holds_and_find_it_as_of_then(postgres_dsn, exact_scope):
    clock = FakeClock(10_000.0)
    backend = PostgresBackend(
        postgres_dsn, schema=fresh_schema(), exact_scope=exact_scope, max_connections=1
    )
    with MemoryStore(backend=backend, embedder=HashingEmbedder(64), clock=clock.time) as store:
        store.put(NS, "diet", {"text": "Alice eats meat", "kind": "food"}, valid_from=1_000.0)
        store.put(
            NS, "vegetarian", {"text": "Alice eats no meat", "kind": "food"}, valid_from=5_000.0
        )
        store.supersede(NS, "diet", by="vegetarian")
        store.put(NS, "tea", {"text": "Alice drinks tea", "kind": "drink"}, valid_from=1_000.0)
        assert store.get(NS, "diet").valid_to == 5_000.0

        for _ in range(6):  # psycopg prepares a statement at its fifth run on a connection
            for filter, now, then in (
                ({"kind": "food"}, {"vegetarian"}, {"diet"}),
                (None, {"vegetarian", "tea"}, {"diet", "tea"}),
            ):
                assert {i.key for i in store.search(NS, filter=filter)} == now
                assert {i.key for i in store.search(NS, filter=filter, as_of=THEN)} == then
                for mode in ("hybrid", "dense", "lexical"):
                    found = store.search(NS, query="alice eats meat", filter=filter, mode=mode)
                    assert {i.key for i in found} == now, mode
                    found = store.search(
                        NS, query="alice eats meat", filter=filter, mode=mode, as_of=THEN
                    )
                    assert {i.key for i in found} == then, mode

        vector = store.embedder.embed_query("alice eats meat")
        for valid, kept in ((Validity(10_000.0), "vegetarian"), (Validity(THEN, THEN), "diet")):
            reads = dict(prefix=NS, clauses=[], now=10_000.0, valid=valid, limit=10)
            dense, lexical = backend.both_rankings("alice eats meat", embedding=vector, **reads)
            rankings = [
                dense,
                lexical,
                backend.dense(embedding=vector, **reads),
                backend.lexical("alice eats meat", **reads),
                [(r.id, s) for r, s in backend.dense_records(embedding=vector, **reads)],
                [(r.id, 0.0) for r in backend.recent(**reads)],
            ]
            expected = {record_id(NS, kept), record_id(NS, "tea")}
            assert [{i for i, _ in ranking} for ranking in rankings] == [expected] * 6, valid
