"""How long the ``memvault`` command line takes to start, to answer a first search, and to ingest
a conversation and ingest it again.

Every figure is the wall time of one ``python -m memvault ...`` in a fresh process (what a user
waits for), the median and the slowest of ``--runs`` runs:

- ``--version``, ``--help`` and ``search --help``;
- ``search QUERY --path STORE``: the first search of a process, on a store of one LoCoMo
  conversation ingested with the default embedder (the conversation's first question as the
  query), after that ingest;
- ``ingest FILE`` into a new store and the same ``ingest FILE`` again (once each: an ingest is
  not repeated to make a median).

Python compiles each module it imports unless a bytecode cache (``__pycache__``) holds it, and
an environment with ``PYTHONDONTWRITEBYTECODE`` set never writes one, so each start compiles
everything again. ``--bytecode`` chooses: ``as-is`` (this environment as it is), ``cached``
(``PYTHONDONTWRITEBYTECODE`` unset, a cache in a temporary ``PYTHONPYCACHEPREFIX`` filled by one
untimed run first: what an installed package does), or ``both`` (default).

``--python`` runs another checkout's interpreter (``.venv/bin/python`` of a worktree at an older
commit) to measure it the same way.

Usage:
    uv run python bench/cli_start.py ../shared/data/locomo
    uv run python bench/cli_start.py ../shared/data/locomo --python /tmp/old/.venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NAMESPACE = "users/locomo"


def timed(python: str, args: list[str], env: dict[str, str]) -> float:
    """Seconds one ``python -m memvault ARGS`` takes, wall time; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "memvault", *args], capture_output=True, text=True, env=env, timeout=900
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"memvault {' '.join(args)} failed: {done.stderr.strip()[-2000:]}")
    return seconds


def spread(python: str, args: list[str], env: dict[str, str], runs: int) -> dict[str, float]:
    """The median and the slowest of ``runs`` timed runs, in seconds."""
    times = [timed(python, args, env) for _ in range(runs)]
    return {"median": statistics.median(times), "max": max(times)}


def environment(bytecode: str, cache: Path) -> dict[str, str]:
    """The subprocesses' environment: as it is, or with a bytecode cache in ``cache``."""
    env = dict(os.environ)
    if bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def measure(
    python: str, conversation: Path, query: str, bytecode: str, runs: int
) -> dict[str, Any]:
    """Every figure of one ``--bytecode`` setting, with a new store."""
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "store")
        env = environment(bytecode, Path(folder) / "pycache")
        if bytecode == "cached":  # fill the cache: every module a start, a search, an ingest load
            timed(python, ["ingest", str(conversation), "-n", NAMESPACE, "--path", store], env)
            timed(python, ["search", query, "--path", store], env)
            store = str(Path(folder) / "store-timed")
        ingest = ["ingest", str(conversation), "-n", NAMESPACE, "--path", store]
        figures: dict[str, Any] = {"ingest": timed(python, ingest, env)}
        figures["ingest again"] = timed(python, ingest, env)
        figures["--version"] = spread(python, ["--version"], env, runs)
        figures["--help"] = spread(python, ["--help"], env, runs)
        figures["search --help"] = spread(python, ["search", "--help"], env, runs)
        figures["first search"] = spread(python, ["search", query, "--path", store], env, runs)
        return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print its table, write ``cli_start.json`` to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversations (26.json, ...)")
    parser.add_argument("--conversation", default="26", help="which one (its file name)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each start")
    parser.add_argument("--bytecode", choices=("as-is", "cached", "both"), default="both")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the checkout")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    conversation = args.data / f"{args.conversation}.json"
    query = json.loads(conversation.read_text())["qa"][0]["question"]
    settings = ["as-is", "cached"] if args.bytecode == "both" else [args.bytecode]
    results: dict[str, Any] = {
        "python": args.python,
        "conversation": args.conversation,
        "query": query,
        "runs": args.runs,
        "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE"),
        "seconds": {
            setting: measure(args.python, conversation, query, setting, args.runs)
            for setting in settings
        },
    }
    print(f"memvault CLI wall times, seconds (median / slowest of {args.runs}; {args.python})")
    print(f"{'':<16}" + "".join(f"{setting:>20}" for setting in settings))
    for figure in results["seconds"][settings[0]]:
        cells = []
        for setting in settings:
            got = results["seconds"][setting][figure]
            cells.append(
                f"{got['median']:.2f} / {got['max']:.2f}" if isinstance(got, dict) else f"{got:.2f}"
            )
        print(f"{figure:<16}" + "".join(f"{cell:>20}" for cell in cells))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cli_start.json").write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
