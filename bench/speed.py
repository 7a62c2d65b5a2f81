"""Write throughput and read latency of memvault against raw Chroma and LangGraph's store.

For each size N (each in a fresh process so peak RSS is its own), in one of two shapes: few
large namespaces (N memories spread evenly over 100 namespaces, the default) or many small ones
(``--per-namespace 100``: N / 100 namespaces of 100 memories, as one per user). Namespaces are
``("bench", group, name)`` with 100 namespaces a group, so a search of ``("bench", group)`` is
a two-level prefix search across 100 namespaces:

- fill: every system is filled with the same N texts and the same precomputed vectors (real
  all-MiniLM-L6-v2 embeddings of a pool of texts, plus small noise), so filling costs no
  embedding and the timing is the store's own;
- put throughput with real embedding (items/s): memvault ``put_many`` (batches of 100) and
  ``put`` (one item) against the baseline "embed with the same MiniLM, then raw Chroma ``add``";
  LangGraph ``InMemoryStore`` (whose index embeds on put) alongside;
- search latency (p50/p95 ms) for a natural-language query in one namespace, query embedding
  included: memvault ``search`` (default hybrid mode, dense and lexical) against "embed the
  query, then raw Chroma ``query`` with a ``where`` on the namespace", and LangGraph
  ``search``; and the same for a two-level prefix (memvault) against a ``where`` on the group;
- get latency by key, and list latency: the 10 newest items of a namespace (``search`` without
  a query) and ``list_namespaces``;
- ratios memvault / baseline from the same run.

``--precomputed`` also takes query vectors from a lookup (no embedding cost at all) and leaves
LangGraph out: the 1M run that shows how search and list cost grow with N.

Usage:
    uv run python bench/speed.py --sizes 1000,10000,100000
    uv run python bench/speed.py --sizes 1000000 --precomputed
    uv run python bench/speed.py --sizes 10000,100000 --precomputed --per-namespace 100

Writes ``speed-N.json`` (``speed-N-precomputed.json``) and ``speed-N.png`` (p50 latency by
operation and system) per size to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from charts import grouped_bars  # noqa: E402

NAMESPACES = 100
NAMES = [
    "Alice",
    "Bob",
    "Carol",
    "Dave",
    "Erin",
    "Frank",
    "Grace",
    "Heidi",
    "Ivan",
    "Judy",
    "Mallory",
    "Oscar",
    "Peggy",
    "Rupert",
    "Sybil",
    "Trent",
    "Victor",
    "Walter",
    "Yara",
    "Zoe",
]  # noqa: E501
VERBS = [
    "visited",
    "painted",
    "adopted",
    "cooked",
    "bought",
    "repaired",
    "learned",
    "planned",
    "photographed",
    "sold",
    "lost",
    "found",
    "borrowed",
    "wrote",
    "sang",
    "climbed",
]  # noqa: E501
THINGS = [
    "a red kayak",
    "a sunrise over the lake",
    "a rescue puppy",
    "a lemon tart",
    "a vintage guitar",
    "an old bicycle",
    "the pottery class",
    "a trip to Norway",
    "a garden shed",
    "a jazz record",
    "a chess set",
    "a mountain trail",
    "a sourdough loaf",
    "a wool scarf",
    "a paper lantern",
    "a camping tent",
]  # noqa: E501
PLACES = [
    "in Lisbon",
    "at the lake house",
    "in the city park",
    "at work",
    "at the farmers market",
    "in Porto",
    "at the beach",
    "in the mountains",
    "at home",
    "at the museum",
    "downtown",
    "in Kyoto",
]  # noqa: E501
WHEN = [
    "last Friday",
    "in May",
    "yesterday",
    "two weeks ago",
    "over the summer",
    "on her birthday",
    "at dawn",
    "last winter",
    "on Sunday",
    "after the concert",
]  # noqa: E501


def texts(count: int, seed: int) -> list[str]:
    """Distinct memory sentences (a number ends each, so none repeats)."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(NAMES)} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(PLACES)} "
        f"{rng.choice(WHEN)} (note {seed}-{i})"
        for i in range(count)
    ]


def questions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        f"What did {rng.choice(NAMES)} do {rng.choice(PLACES)} {rng.choice(WHEN)}?"
        for _ in range(count)
    ]


class LookupEmbedder:
    """Precomputed vectors by text (no embedding cost); MiniLM's name and dim.

    Texts not in the table are embedded with MiniLM for real, so the same store can measure
    puts with real embedding.
    """

    def __init__(self, table: dict[str, np.ndarray], real) -> None:
        self.table, self.real = table, real
        self.name, self.dim = real.name, real.dim

    def array(self, batch: list[str]) -> np.ndarray:
        missing = [t for t in batch if t not in self.table]
        if missing:
            self.table.update(zip(missing, self.real.embed_array(missing)))
        return np.stack([self.table[t] for t in batch])

    def embed_documents(self, batch: list[str]) -> list[list[float]]:
        return self.array(list(batch)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.array([text])[0].tolist()


def pool_vectors(real, corpus: list[str], pool: int, seed: int) -> np.ndarray:
    """Vectors for ``corpus``: real embeddings of ``pool`` of its texts, reused with noise."""
    base = real.embed_array(corpus[:pool])
    rng = np.random.default_rng(seed)
    picks = np.arange(len(corpus)) % pool
    vectors = base[picks] + rng.normal(0, 0.02, size=(len(corpus), real.dim)).astype(np.float32)
    vectors[:pool] = base
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


@dataclass
class Workload:
    """N memories as every system of a benchmark stores them (see :func:`workload`)."""

    corpus: list[str]
    vectors: np.ndarray  # (N, dim), unit rows
    spaces: int  # namespaces the memories are spread over
    namespace_of: list[tuple[str, str, str]]  # memory i's namespace
    by_namespace: dict[tuple[str, str, str], list[int]]  # namespace -> its memories


def workload(real, size: int, *, seed: int, per_namespace: int | None = None) -> Workload:
    """``size`` memories with precomputed vectors, over :data:`NAMESPACES` namespaces or, with
    ``per_namespace``, ``size / per_namespace`` namespaces (see the module docstring)."""
    corpus = texts(size, seed)
    vectors = pool_vectors(real, corpus, min(size, 2000), seed)
    spaces = max(1, size // per_namespace) if per_namespace else NAMESPACES
    namespace_of = [namespace_for(i % spaces) for i in range(size)]
    by_namespace: dict[tuple[str, str, str], list[int]] = {}
    for i, name in enumerate(namespace_of):
        by_namespace.setdefault(name, []).append(i)
    return Workload(corpus, vectors, spaces, namespace_of, by_namespace)


def percentiles(seconds: list[float]) -> dict[str, float]:
    ms = np.array(seconds) * 1000
    return {
        "p50": round(float(np.percentile(ms, 50)), 3),
        "p95": round(float(np.percentile(ms, 95)), 3),
    }


def rss_mb() -> float:
    import psutil

    return round(psutil.Process().memory_info().rss / 2**20, 1)


def peak_rss_mb() -> float:
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def namespace_for(n: int) -> tuple[str, str, str]:
    """Namespace number ``n`` as ``("bench", group, name)``; 100 namespaces make a group."""
    return ("bench", f"g{n // 100:04d}", f"ns{n:06d}")


def run_size(
    size: int,
    *,
    precomputed: bool,
    queries: int,
    put_sample: int,
    seed: int,
    per_namespace: int | None = None,
) -> dict:
    """Fill each system with ``size`` items and measure it (see the module docstring).

    ``per_namespace``: memories per namespace (the many-small-namespaces shape), else the
    ``size`` memories spread over :data:`NAMESPACES` namespaces.
    """
    import chromadb
    from chromadb.config import Settings

    from memvault import MemoryStore
    from memvault.minilm import MiniLMEmbedder

    real = MiniLMEmbedder()
    real.embed_array(["warm up"])
    load = workload(real, size, seed=seed, per_namespace=per_namespace)
    corpus, vectors, spaces = load.corpus, load.vectors, load.spaces
    namespace_of, by_namespace = load.namespace_of, load.by_namespace
    table = dict(zip(corpus, vectors))
    systems = ["memvault", "chroma"] + ([] if precomputed else ["langgraph"])
    out: dict = {"size": size, "namespaces": spaces, "precomputed": precomputed, "fill": {}}
    rss = {"start": rss_mb()}
    tmp = tempfile.TemporaryDirectory()
    lookup = LookupEmbedder(table, real)

    # -- fill ------------------------------------------------------------------------------
    store = MemoryStore(Path(tmp.name) / "memvault", embedder=lookup)
    start = time.perf_counter()
    for name, rows in by_namespace.items():
        store.put_many(name, [(f"k{i}", {"text": corpus[i], "n": i}) for i in rows])
    out["fill"]["memvault"] = round(size / (time.perf_counter() - start), 1)
    rss["memvault"] = rss_mb()

    client = chromadb.PersistentClient(
        str(Path(tmp.name) / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_or_create_collection(
        "bench", embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )
    start = time.perf_counter()
    ordered = [i for rows in by_namespace.values() for i in rows]
    for chunk in range(0, size, 5000):  # raw Chroma at its best: batches across namespaces
        part = ordered[chunk : chunk + 5000]
        collection.add(
            ids=[f"{namespace_of[i][2]}/k{i}" for i in part],
            embeddings=vectors[part],
            metadatas=[{"g": namespace_of[i][1], "ns": namespace_of[i][2], "n": i} for i in part],
        )
    out["fill"]["chroma"] = round(size / (time.perf_counter() - start), 1)
    rss["chroma"] = rss_mb()

    graph = None
    if "langgraph" in systems:
        from langgraph.store.base import PutOp
        from langgraph.store.memory import InMemoryStore

        graph = InMemoryStore(
            index={"dims": real.dim, "embed": lookup.embed_documents, "fields": ["text"]}
        )
        start = time.perf_counter()
        for name, rows in by_namespace.items():
            graph.batch([PutOp(name, f"k{i}", {"text": corpus[i], "n": i}) for i in rows])
        out["fill"]["langgraph"] = round(size / (time.perf_counter() - start), 1)
        rss["langgraph"] = rss_mb()

    # -- put throughput with real embedding -------------------------------------------------
    puts: dict[str, dict[str, float]] = {}
    new = texts(put_sample * 2 + 100, seed + 1)
    mv_batch, base_batch = new[:put_sample], new[put_sample : put_sample * 2]
    singles = new[put_sample * 2 :]
    batch = 100

    def memvault_batched(at: int) -> None:
        store.put_many(
            namespace_for(0),
            [(f"p{at + j}", {"text": t, "n": j}) for j, t in enumerate(mv_batch[at : at + batch])],
        )

    def baseline_batched(at: int) -> None:
        part = base_batch[at : at + batch]
        collection.add(
            ids=[f"ns000000/p{at + j}" for j in range(len(part))],
            embeddings=real.embed_array(part),
            metadatas=[{"g": "g0000", "ns": "ns000000", "n": j} for j in range(len(part))],
        )

    spent = {"memvault": 0.0, "baseline": 0.0}
    for at in range(0, put_sample, batch):  # alternate, so machine noise hits both alike
        spent["memvault"] += timed(memvault_batched, at)
        spent["baseline"] += timed(baseline_batched, at)
    puts["memvault_batched"] = round(put_sample / spent["memvault"], 1)
    puts["embed+chroma_batched"] = round(put_sample / spent["baseline"], 1)
    single_mv = [
        timed(store.put, namespace_for(1), f"s{j}", {"text": t}) for j, t in enumerate(singles[:50])
    ]
    single_base = [
        timed(
            lambda j=j, t=t: collection.add(
                ids=[f"ns000001/s{j}"],
                embeddings=real.embed_array([t]),
                metadatas=[{"g": "g0000", "ns": "ns000001"}],
            )
        )
        for j, t in enumerate(singles[50:100])
    ]
    puts["memvault_single"] = round(len(single_mv) / sum(single_mv), 1)
    puts["embed+chroma_single"] = round(len(single_base) / sum(single_base), 1)
    if graph is not None:
        from langgraph.store.base import PutOp

        graph_store = graph  # new texts are not in the lookup: embedded by MiniLM for real
        lg_batch = texts(put_sample, seed + 2)

        def langgraph_batched() -> None:
            for at in range(0, put_sample, batch):
                graph_store.batch(
                    [
                        PutOp(namespace_for(2), f"p{at + j}", {"text": t})
                        for j, t in enumerate(lg_batch[at : at + batch])
                    ]
                )

        puts["langgraph_batched"] = round(put_sample / timed(langgraph_batched), 1)
        lg_single = [
            timed(graph_store.put, namespace_for(3), f"s{j}", {"text": t})
            for j, t in enumerate(texts(50, seed + 3))
        ]
        puts["langgraph_single"] = round(len(lg_single) / sum(lg_single), 1)
    out["put_items_per_s"] = puts

    # -- reads -----------------------------------------------------------------------------
    asks = questions(queries, seed + 4)
    rng = random.Random(seed + 5)
    targets = [namespace_for(rng.randrange(spaces)) for _ in asks]
    if precomputed:
        lookup.array(asks)  # query vectors computed up front: no embedding cost below
        embed_query = lookup.array
    else:
        embed_query = real.embed_array
    timings: dict[str, list[float]] = {}

    def measure(name: str, function, *args, **kwargs) -> None:
        timings.setdefault(name, []).append(timed(function, *args, **kwargs))

    def embed_then_query(ask: str, target: tuple[str, str, str], level: str = "ns") -> None:
        where = {level: target[2] if level == "ns" else target[1]}
        collection.query(query_embeddings=embed_query([ask]), n_results=10, where=where)

    for ask, target in zip(asks, targets):
        order = list(range(8))
        rng.shuffle(order)  # interleave systems so a noisy neighbour hurts all alike
        for step in order:
            if not precomputed:
                lookup.table.pop(ask, None)  # each system embeds the query for real
            if step == 0:
                measure("search memvault", store.search, target, query=ask, limit=10)
            elif step in (1, 2):
                mode = "dense" if step == 1 else "lexical"
                measure(
                    f"search memvault {mode}", store.search, target, query=ask, limit=10, mode=mode
                )
            elif step == 3:
                measure("search embed+chroma", embed_then_query, ask, target)
            elif step == 4:
                measure("search 2-level prefix memvault", store.search, target[:2], query=ask)
            elif step == 5:
                measure("search 2-level prefix embed+chroma", embed_then_query, ask, target, "g")
            elif step == 6:
                measure(
                    "search 2-level prefix memvault dense",
                    store.search,
                    target[:2],
                    query=ask,
                    mode="dense",
                )
            elif graph is not None:
                measure("search langgraph", graph.search, target, query=ask, limit=10)
    for _ in range(queries):
        i = rng.randrange(size)
        name = namespace_of[i]
        measure("get memvault", store.get, name, f"k{i}")
        measure("get chroma", collection.get, ids=[f"{name[2]}/k{i}"])
        if graph is not None:
            measure("get langgraph", graph.get, name, f"k{i}")
        measure("list memvault", store.search, name, limit=10)
        measure("list chroma", collection.get, where={"ns": name[2]}, limit=10)
        if graph is not None:
            measure("list langgraph", graph.search, name, limit=10)
    for _ in range(10):
        measure("list_namespaces memvault", store.list_namespaces, limit=100_000)
        if graph is not None:
            measure("list_namespaces langgraph", graph.list_namespaces, limit=1000)
    out["latency_ms"] = {name: percentiles(values) for name, values in timings.items()}
    latency = out["latency_ms"]
    out["ratios"] = {
        "search p50 memvault / (embed + chroma)": round(
            latency["search memvault"]["p50"] / latency["search embed+chroma"]["p50"], 3
        ),
        "search p50 memvault dense / (embed + chroma)": round(
            latency["search memvault dense"]["p50"] / latency["search embed+chroma"]["p50"], 3
        ),
        "batched put memvault / (embed + chroma)": round(
            puts["memvault_batched"] / puts["embed+chroma_batched"], 3
        ),
        "single put memvault / (embed + chroma)": round(
            puts["memvault_single"] / puts["embed+chroma_single"], 3
        ),
    }
    out["rss_mb"] = rss
    out["peak_rss_mb"] = peak_rss_mb()
    store.close()
    tmp.cleanup()
    return out


def report(results: list[dict]) -> str:
    """The results as Markdown tables."""
    lines = []
    for got in results:
        kind = "precomputed vectors" if got["precomputed"] else "real query embedding"
        lines.append(
            f"\n### N = {got['size']:,} in {got['namespaces']:,} namespaces ({kind}), "
            f"peak RSS {got['peak_rss_mb']} MB\n"
        )
        lines.append("| measure | p50 ms | p95 ms |")
        lines.append("|---|---|---|")
        for name, value in got["latency_ms"].items():
            lines.append(f"| {name} | {value['p50']:.2f} | {value['p95']:.2f} |")
        lines.append("\n| throughput | items/s |")
        lines.append("|---|---|")
        for name, value in got["fill"].items():
            lines.append(f"| fill {name} (no embedding) | {value:,.0f} |")
        for name, value in got["put_items_per_s"].items():
            lines.append(f"| put {name} (MiniLM embedding) | {value:,.1f} |")
        lines.append("\n| ratio | value |")
        lines.append("|---|---|")
        for name, value in got["ratios"].items():
            lines.append(f"| {name} | {value:.3f} |")
    return "\n".join(lines)


SYSTEM_NAMES = ("memvault", "embed+chroma", "chroma", "langgraph")
"""The first word of a latency's system in its name; the words before it name the operation."""


def chart(got: dict, path: Path) -> Path:
    """Write p50 latency by operation and system (ms, log scale) as a PNG; returns ``path``."""
    by_system: dict[str, dict[str, float]] = {}
    for name, quantiles in got["latency_ms"].items():
        words = name.split()
        at = next(i for i, word in enumerate(words) if word in SYSTEM_NAMES)
        operation, system = " ".join(words[:at]), " ".join(words[at:])
        by_system.setdefault(system, {})[operation] = quantiles["p50"]
    operations = list(dict.fromkeys(op for ops in by_system.values() for op in ops))
    kind = "precomputed vectors" if got["precomputed"] else "query embedding included"
    return grouped_bars(
        path,
        groups=operations,
        series={system: [ops.get(op) for op in operations] for system, ops in by_system.items()},
        title=f"Latency at N = {got['size']:,} memories in {got['namespaces']:,} namespaces",
        xlabel="operation",
        ylabel="p50 latency (ms, log scale)",
        legend="system",
        log=True,
        note=f"{kind}; p95 and throughputs in the JSON beside this chart",
    )


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000", help="comma-separated N, e.g. 1000,10000")
    parser.add_argument("--precomputed", action="store_true", help="no embedding cost at all")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--put-sample", type=int, default=1000, help="items per put measure")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--per-namespace",
        type=int,
        default=None,
        help="memories per namespace (many small namespaces); default N over 100 namespaces",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--in-process", action="store_true", help="no subprocess per size")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for size in sizes:
        options = dict(
            precomputed=args.precomputed,
            queries=args.queries,
            put_sample=args.put_sample,
            seed=args.seed,
            per_namespace=args.per_namespace,
        )
        if args.in_process:
            got = run_size(size, **options)
        else:
            code = (
                "import json, sys; sys.path.insert(0, sys.argv[1]); import speed; "
                "print(json.dumps(speed.run_size(int(sys.argv[2]), **json.loads(sys.argv[3]))))"
            )
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    code,
                    str(Path(__file__).parent),
                    str(size),
                    json.dumps(options),
                ],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise SystemExit(f"size {size} failed:\n{done.stderr[-3000:]}")
            got = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(got)
        suffix = "-precomputed" if args.precomputed else ""
        (args.out / f"speed-{size}{suffix}.json").write_text(json.dumps(got, indent=2))
        chart(got, args.out / f"speed-{size}{suffix}.png")
        print(report([got]), flush=True)
    return results


if __name__ == "__main__":
    main()
