"""How hybrid search's constants were chosen: leave-one-conversation-out (LOCO) on LoCoMo.

The constants: BM25's ``k1`` and ``b`` (:data:`memvault.lexical.BM25_K1`, ``BM25_B``), the
lexical share of the fused score (:data:`memvault.fusion.LEXICAL_WEIGHT`), the bonus of an item
stored in a period the question names (:data:`memvault.fusion.DATE_BONUS`) and the days after
a period that still count (:data:`memvault.periods.DATE_SLACK`).

Each conversation of ``data`` is read as ``bench/locomo.py`` stores it (its turns with the
library's context window, each turn created at its session's date), but not stored: for
every question with evidence, the store's two rankings are made here with the library's own
parts, for every setting of :data:`GRID`: BM25 by :func:`memvault.lexical.bm25` over the words of
:func:`memvault.lexical.indexed_text` (the store's scores, with ``k1`` and ``b`` varied), the
dense ranking by cosine of the same MiniLM vectors the store keeps, both fused by
:func:`memvault.fusion.blend` with the dates :func:`memvault.periods.named_periods` reads.
With the shipped constants these rankings are the store's (``bench/locomo.py``'s ``memvault``
row gives the same recall@k).

For each conversation, the setting with the best mean of R@1/5/10/20 on the other
conversations is scored on it (held out); the setting best on all of them is the one to ship.

Usage:
    uv run python bench/ranking_choice.py ../shared/data/locomo [--conversations N]
        [--vectors FILE.npz] [--small] [--out DIR]

Prints the tables and writes ``ranking_choice.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cached_embedder import CachedEmbedder  # noqa: E402
from locomo import conversation_turns, evidence_ids, recalls  # noqa: E402

from memvault.fusion import DATE_BONUS, FUSION_DEPTH, LEXICAL_WEIGHT, blend  # noqa: E402
from memvault.lexical import BM25_B, BM25_K1, bm25, indexed_text, query_terms, terms_of  # noqa: E402
from memvault.periods import DATE_SLACK, named_periods  # noqa: E402

DAY = 86400.0


class Setting(NamedTuple):
    """One setting of the constants."""

    k1: float
    b: float
    weight: float
    bonus: float
    slack_days: float

    def label(self) -> str:
        return (
            f"k1={self.k1} b={self.b} w={self.weight} bonus={self.bonus} slack={self.slack_days:g}d"
        )


GRID = [
    Setting(k1, b, weight, bonus, slack if bonus else 0.0)
    for k1, b, weight in itertools.product(
        (0.8, 1.2, 1.5, 2.0, 2.5, 3.0), (0.0, 0.1, 0.3, 0.5, 0.75), (0.6, 0.7, 0.8)
    )
    for bonus, slack in [(0.0, 0.0)] + list(itertools.product((0.2, 0.4, 0.6), (0.0, 7.0, 31.0)))
]
SMALL = [
    Setting(k1, b, 0.7, bonus, 7.0 if bonus else 0.0)
    for k1, b, bonus in itertools.product((1.2, 2.5), (0.1, 0.75), (0.0, 0.6))
]
"""A grid for a quick run (``--small``, as CI runs it)."""
SHIPPED = Setting(BM25_K1, BM25_B, LEXICAL_WEIGHT, DATE_BONUS, DATE_SLACK / DAY)
BEFORE = Setting(1.2, 0.75, 0.7, 0.0, 0.0)
"""The constants before this choice (issue 12's starting point)."""


class Conversation:
    """One LoCoMo conversation's turns, questions and what every setting needs of them."""

    def __init__(self, file: Path, embedder: CachedEmbedder):
        self.name = file.stem
        turns = conversation_turns(file)
        qa = [q for q in json.loads(file.read_text())["qa"] if evidence_ids(q)]
        self.ids = [t.turn_id for t in turns]
        self.created = np.array([t.timestamp for t in turns], dtype=np.float64)
        texts = [indexed_text(t.value()) for t in turns]
        terms = [terms_of(text) for text in texts]
        self.lengths = np.array([length for _, length in terms], dtype=np.float64)
        self.wanted = [evidence_ids(q) for q in qa]
        self.temporal = np.array([q["category"] == 2 for q in qa])
        self.periods = [named_periods(q["question"]) for q in qa]
        questions = [q["question"] for q in qa]
        cosines = embedder.array(questions, queries=True) @ embedder.array(texts).T
        self.dense = [self._top(row) for row in cosines]
        self.frequencies = [
            np.array([[counts.get(t, 0) for t in query_terms(q)] for counts, _ in terms])
            for q in questions
        ]

    def _top(self, scores: np.ndarray) -> list[tuple[str, float]]:
        order = np.lexsort((np.arange(len(scores)), -scores))[:FUSION_DEPTH]
        return [(self.ids[j], float(scores[j])) for j in order]

    def lexical(self, question: int, k1: float, b: float) -> list[tuple[str, float]]:
        """The BM25 top of a question, as the store ranks it with ``k1`` and ``b``."""
        frequencies = self.frequencies[question]
        if frequencies.size == 0:
            return []
        rows = np.nonzero(frequencies.sum(axis=1) > 0)[0]
        scores = bm25(
            frequencies[rows],
            self.lengths[rows],
            documents=len(self.ids),
            mean_length=float(self.lengths.mean()),
            k1=k1,
            b=b,
        )
        order = np.lexsort((rows, -scores))[:FUSION_DEPTH]
        return [(self.ids[rows[j]], float(scores[j])) for j in order]

    def dated(self, question: int, slack_days: float) -> set[str]:
        periods = self.periods[question]
        return {
            turn_id
            for turn_id, created in zip(self.ids, self.created)
            if any(p.holds(created, slack=slack_days * DAY) for p in periods)
        }


def score(conversations: list[Conversation], grid: list[Setting]) -> dict:
    """R@k of every question for every setting (and lexical alone per BM25 setting)."""
    got: dict = {}
    slacks = {s.slack_days for s in grid if s.bonus}
    for conv in conversations:
        questions = range(len(conv.wanted))
        dated = {slack: [conv.dated(q, slack) for q in questions] for slack in slacks}
        for k1, b in dict.fromkeys((s.k1, s.b) for s in grid):
            lexical = [conv.lexical(q, k1, b) for q in questions]
            got[(("lexical", k1, b), conv.name)] = np.array(
                [recalls([i for i, _ in lex], w) for lex, w in zip(lexical, conv.wanted)]
            )
            for setting in (s for s in grid if (s.k1, s.b) == (k1, b)):
                rows = []
                for q, wanted in enumerate(conv.wanted):
                    fused = blend(
                        conv.dense[q],
                        lexical[q],
                        weight=setting.weight,
                        dated=dated[setting.slack_days][q] if setting.bonus else (),
                        bonus=setting.bonus,
                    )
                    rows.append(recalls([i for i, _ in fused], wanted))
                got[(setting, conv.name)] = np.array(rows)
    return got


def _pooled(got: dict, setting: Setting, names: list[str]) -> np.ndarray:
    return np.concatenate([got[(setting, n)] for n in names]).mean(axis=0)


def choose(got: dict, names: list[str], grid: list[Setting]) -> dict:
    """Per conversation the setting best on the others (mean R@k); and the best on all."""
    picks = {}
    for name in names:
        others = [n for n in names if n != name] or [name]
        picks[name] = max(grid, key=lambda s: float(_pooled(got, s, others).mean()))
    best = max(grid, key=lambda s: float(_pooled(got, s, names).mean()))
    return {"held_out": picks, "all": best}


def tables(got: dict, conversations: list[Conversation], chosen: dict) -> tuple[str, dict]:
    """The LOCO table (held out, shipped, before, lexical) and its figures as a dict."""
    names = [c.name for c in conversations]
    temporal = {c.name: c.temporal for c in conversations}
    rows: dict = {}
    held = "held out" if len(names) > 1 else "picked on itself"  # one conversation: no other
    for name in names:
        pick = chosen["held_out"][name]
        rows[name] = {
            held: got[(pick, name)],
            "shipped": got[(SHIPPED, name)],
            "before": got[(BEFORE, name)],
            "lexical (shipped k1, b)": got[(("lexical", SHIPPED.k1, SHIPPED.b), name)],
        }
    lines = [
        "| conversation | system | R@1 | R@5 | R@10 | R@20 | temporal R@10 |",
        "|---|---|---|---|---|---|---|",
    ]
    figures: dict = {"picks": {n: chosen["held_out"][n].label() for n in names}}
    for name in [*names, "all"]:
        group = names if name == "all" else [name]
        for system in rows[names[0]]:
            values = np.concatenate([rows[n][system] for n in group])
            late = np.concatenate([rows[n][system][temporal[n]] for n in group])
            mean = values.mean(axis=0)
            cells = " | ".join(f"{v:.3f}" for v in [*mean, late[:, 2].mean()])
            lines.append(f"| {name} ({len(values)}) | {system} | {cells} |")
            figures.setdefault(name, {})[system] = [round(float(v), 4) for v in mean]
    return "\n".join(lines), figures


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--conversations", type=int, help="only the first N files (sorted)")
    parser.add_argument("--vectors", type=Path, help="an .npz of vectors, read and saved")
    parser.add_argument("--small", action="store_true", help="a grid of 8 settings, not 900")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    files = sorted(args.data.glob("*.json"))[: args.conversations]
    if not files:
        raise SystemExit(f"no LoCoMo *.json files in {args.data}")
    embedder = CachedEmbedder()
    if args.vectors:
        embedder.load(args.vectors)
    conversations = [Conversation(file, embedder) for file in files]
    if args.vectors:
        embedder.save(args.vectors)
    grid = list(dict.fromkeys([*(SMALL if args.small else GRID), SHIPPED, BEFORE]))
    got = score(conversations, grid)
    chosen = choose(got, [c.name for c in conversations], grid)
    table, figures = tables(got, conversations, chosen)
    print(f"{len(grid)} settings, {sum(len(c.wanted) for c in conversations)} questions")
    for name, pick in chosen["held_out"].items():
        print(f"held out {name}: picked on the others {pick.label()}")
    print(f"best on all: {chosen['all'].label()}; shipped: {SHIPPED.label()}")
    print(table)
    results = {"shipped": SHIPPED.label(), "best on all": chosen["all"].label(), **figures}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "ranking_choice.json").write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
