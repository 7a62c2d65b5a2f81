"""Reply latency that memory adds to an agent, with fact extraction in the caller or in the
background.

Four LangChain ``create_agent`` agents with the same scripted chat model (it answers at once):

- ``no memory``: no middleware, the baseline;
- ``recall only``: ``MemoryMiddleware(store, save=False)`` over the ``background=False``
  agent's store (so it recalls from as many memories as the others): recall before the model
  call (the query's embedding and a hybrid search), nothing stored;
- ``background=False``: ``MemoryMiddleware(store, extractor=FactExtractor(llm))``, which
  recalls before the model call and extracts and stores the turn's facts after it, in the run;
- ``background=True``: the same middleware with ``background=True``, whose extraction and
  writes run on the memory's worker thread (``memvault.background``).

The extraction LLM is scripted to take ``--llm-seconds`` (default 1 s) per call, as a hosted
model would, and then answers one fact per user line. Each agent is sent the same ``--turns``
user statements, interleaved turn by turn (in the order above), after
``--warmup`` untimed turns each (the embedder loads then). A turn's latency is the wall time
of ``agent.invoke``; the added latency is a configuration's p50 (p95) minus the baseline's
p50 (p95), same run, and the ingestion latency its p50 (p95) minus recall only's: what storing
the turn adds to the reply. After the timed turns the background middleware is flushed, and the
time that took and the stored count are reported too.

Usage:
    uv run python bench/reply_latency.py                      # 20 turns, 1 s LLM, MiniLM
    uv run python bench/reply_latency.py --turns 5 --llm-seconds 0.2 --embedder hashing  # CI

Writes ``reply_latency.json`` and ``reply_latency.png`` (p50 and p95 per configuration) to
``--out``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_memvault import MemoryMiddleware

from memvault import FactExtractor, HashingEmbedder, MemoryStore

sys.path.insert(0, str(Path(__file__).resolve().parent))

from charts import grouped_bars  # noqa: E402

CONFIGS = ("no memory", "recall only", "background=False", "background=True")
SAVING = CONFIGS[2:]
PLACES = ["Porto", "Lisbon", "Kyoto", "Oslo", "Quito", "Hanoi", "Perth", "Accra", "Lima", "Riga"]
THINGS = ["bicycles", "cats", "guitars", "plants", "kayaks", "teapots", "cameras", "maps"]


def statements(count: int) -> list[str]:
    """``count`` different statements a user might make, one per turn."""
    pairs = itertools.product(range(1, 100), PLACES, THINGS)
    return [f"I keep {n} {thing} at my flat in {place}." for n, place, thing in pairs][:count]


class SlowExtractionLLM:
    """A callable LLM for :class:`memvault.FactExtractor`: sleeps, then one fact per user line."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls = 0

    def __call__(self, prompt: list[dict[str, str]]) -> str:
        self.calls += 1
        transcript = json.loads(prompt[-1]["content"].split("\n", 1)[1])
        lines = [line[6:] for line in transcript.split("\n") if line.startswith("user: ")]
        time.sleep(self.seconds)
        return json.dumps({"facts": [f"The user says: {line}" for line in lines]})


class ChatModel(GenericFakeChatModel):
    """The agents' model: answers "Noted." at once, forever."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ChatModel:
        return self


def percentiles(values: list[float]) -> dict[str, float]:
    """p50 and p95 (nearest rank) of ``values``, in the values' unit, rounded to 0.01."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print its table, write ``reply_latency.json`` and ``.png`` to ``--out``.

    Returns:
        ``{"turns", "llm_seconds", "embedder", "latency_ms": {config: {"p50", "p95"}},
        "added_ms": {config: {"p50", "p95"}}, "ingestion_ms": {config: {"p50", "p95"}},
        "flush_s", "stored": {config: int}, "failures"}``; times in milliseconds except
        ``flush_s`` (seconds).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20, help="timed turns per configuration")
    parser.add_argument("--warmup", type=int, default=1, help="untimed turns first")
    parser.add_argument("--llm-seconds", type=float, default=1.0, help="per extraction call")
    parser.add_argument(
        "--embedder", choices=["minilm", "hashing"], default="minilm", help="the stores' embedder"
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="memvault-reply-latency-"))
    embedder: Any = HashingEmbedder(256) if args.embedder == "hashing" else "minilm"
    stores = {
        config: MemoryStore(folder / config.replace("=", "-"), embedder=embedder)
        for config in SAVING
    }
    stores["recall only"] = stores["background=False"]
    llm = SlowExtractionLLM(args.llm_seconds)
    middlewares = {
        config: MemoryMiddleware(
            stores[config],
            extractor=FactExtractor(llm),
            save=config in SAVING,
            background=config == "background=True",
        )
        for config in CONFIGS[1:]
    }
    agents = {
        config: create_agent(
            ChatModel(messages=itertools.repeat("Noted.")),
            middleware=[middlewares[config]] if config in middlewares else [],
        )
        for config in CONFIGS
    }
    said = statements(args.warmup + args.turns)
    latencies: dict[str, list[float]] = {config: [] for config in CONFIGS}
    for turn, text in enumerate(said):
        for config in CONFIGS:
            start = time.perf_counter()
            agents[config].invoke(
                {"messages": [("user", text)]},
                {"configurable": {"thread_id": f"t{turn}"}},
                context={"user_id": "ada"},
            )
            if turn >= args.warmup:
                latencies[config].append(1000 * (time.perf_counter() - start))
    start = time.perf_counter()
    middlewares["background=True"].flush()
    flush_s = time.perf_counter() - start

    latency = {config: percentiles(values) for config, values in latencies.items()}
    base, recall = latency["no memory"], latency["recall only"]
    results: dict[str, Any] = {
        "turns": args.turns,
        "llm_seconds": args.llm_seconds,
        "embedder": args.embedder,
        "latency_ms": latency,
        "added_ms": {
            config: {q: round(latency[config][q] - base[q], 2) for q in ("p50", "p95")}
            for config in CONFIGS[1:]
        },
        "ingestion_ms": {
            config: {q: round(latency[config][q] - recall[q], 2) for q in ("p50", "p95")}
            for config in SAVING
        },
        "flush_s": round(flush_s, 2),
        "stored": {config: stores[config].count(("users", "ada")) for config in SAVING},
        "failures": middlewares["background=True"].memory.ingestion.failures,
    }
    for config in SAVING:
        stores[config].close()

    print(
        f"reply latency, {args.turns} turns, extraction LLM {args.llm_seconds:g} s, "
        f"{args.embedder} embedder"
    )
    print(
        f"{'configuration':<18} {'p50 ms':>9} {'p95 ms':>9} {'added p50':>10} {'added p95':>10} "
        f"{'ingestion p50':>14} {'ingestion p95':>14}"
    )
    zero = {"p50": 0.0, "p95": 0.0}
    for config in CONFIGS:
        added = results["added_ms"].get(config, zero)
        ingestion = results["ingestion_ms"].get(config)
        shown = f"{ingestion['p50']:>14.2f} {ingestion['p95']:>14.2f}" if ingestion else f"{'':>29}"
        print(
            f"{config:<18} {latency[config]['p50']:>9.2f} {latency[config]['p95']:>9.2f} "
            f"{added['p50']:>10.2f} {added['p95']:>10.2f} {shown}"
        )
    print(
        f"background flush after the last turn: {flush_s:.2f} s; memories stored: "
        f"{results['stored']}; background failures: {results['failures']}"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "reply_latency.json").write_text(json.dumps(results, indent=2) + "\n")
    chart(results, args.out / "reply_latency.png")
    return results


def chart(results: dict[str, Any], path: Path) -> Path:
    """Write the reply latency (p50 and p95, ms) per configuration as a PNG; returns ``path``."""
    latency = results["latency_ms"]
    return grouped_bars(
        path,
        groups=list(latency),
        series={q: [latency[config][q] for config in latency] for q in ("p50", "p95")},
        title=f"Reply latency with memory ({results['turns']} turns per configuration)",
        xlabel="configuration",
        ylabel="agent.invoke wall time (ms)",
        legend="quantile",
        note=(
            f"scripted chat model; extraction LLM scripted to take {results['llm_seconds']:g} s; "
            f"{results['embedder']} embedder; measured in this run"
        ),
    )


if __name__ == "__main__":
    main(sys.argv[1:])
