"""Calibrate the near-duplicate rule: content words, MiniLM cosine and numbers on labelled pairs.

Each line of ``paraphrase_pairs.jsonl`` is a hand-labelled pair of memories, ``{"a", "b",
"paraphrase", "note"}``: positives state the same fact in other words, negatives are mostly hard
(same topic, different fact: another city, person, date, a negation, a question; an *update* of
a number, "since 2015" / "since 2019", is a negative too: merging would overwrite it silently).
The rule is memvault's own: two memories merge when their ``memvault.memory_key`` is equal
(content words in order), or, with ``similarity_threshold=t``, when
``memvault.statements.near_duplicate`` holds at overlap ``j`` (both swept); the cosine is
MiniLM's (``MiniLMEmbedder``, unit vectors, so the dot product). Prints:

- precision / recall / F1 of the parts alone: equal keys (no cosine); cosine alone (best-F1
  t);
- precision / recall of the rule for t in 0.50..0.98 (step 0.02) by j in OVERLAPS;
- the chosen (t, j): the highest recall at precision >= 0.95 (ties: higher t, then higher j);
  if no (t, j) reaches it, the highest precision (ties: recall, t, j), flagged as such;
- a leave-half-out check: (t, j) chosen that way on even-numbered lines, scored on the
  odd-numbered lines, and vice versa;
- the false positives and false negatives of the chosen rule.

Usage:
    uv run python bench/similarity_threshold.py [--pairs PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from memvault import MiniLMEmbedder
from memvault.statements import memory_key, near_duplicate

THRESHOLDS = np.round(np.arange(0.50, 0.985, 0.02), 2)
OVERLAPS = (0.5, 0.6, 2 / 3, 0.75, 0.8, 1.0)  # 2/3 is printed as 0.67
MIN_PRECISION = 0.95


def cosines(pairs: list[dict]) -> np.ndarray:
    """MiniLM cosine similarity of each pair, every text embedded in one batch."""
    vectors = np.array(MiniLMEmbedder().embed_documents([p[s] for p in pairs for s in "ab"]))
    return np.sum(vectors[0::2] * vectors[1::2], axis=1)


def merged_by_rule(pairs: list[dict], cosine: np.ndarray, t: float, j: float) -> np.ndarray:
    """Which pairs memvault merges with ``similarity_threshold=t`` and overlap j: equal
    ``memory_key``, or ``near_duplicate`` (t above 1 leaves only the keys)."""
    return np.array(
        [
            memory_key(p["a"]) == memory_key(p["b"])
            or near_duplicate(p["a"], p["b"], float(c), t, overlap=j)
            for p, c in zip(pairs, cosine)
        ]
    )


def scores(merged: np.ndarray, labels: np.ndarray) -> tuple[float, float, float]:
    """Precision, recall, F1 of a prediction (precision 1 if nothing is merged)."""
    hits = np.sum(merged & labels)
    precision = hits / merged.sum() if merged.any() else 1.0
    recall = hits / labels.sum()
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return float(precision), float(recall), float(f1)


Grid = dict[tuple[float, float], np.ndarray]


def choose(grid: Grid, labels: np.ndarray, rows: np.ndarray) -> tuple[float, float, bool]:
    """(t, j, whether precision >= MIN_PRECISION was reached) on ``rows``, as the docstring
    says."""

    def key(tj: tuple[float, float]) -> tuple:
        precision, recall, _ = scores(grid[tj][rows], labels[rows])
        met = precision >= MIN_PRECISION
        return (met, recall if met else precision, recall, *tj)

    best = max(grid, key=key)
    return (*best, key(best)[0])


def describe(merged: np.ndarray, labels: np.ndarray) -> str:
    precision, recall, f1 = scores(merged, labels)
    n = f"{np.sum(merged & labels)}/{merged.sum()} merged right, of {labels.sum()}"
    return f"precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f} ({n})"


def rule_name(t: float, j: float, met: bool, keys_only: bool) -> str:
    if keys_only:
        return "no threshold (similarity_threshold=None): no (t, j) adds merges at that precision"
    note = "" if met else f" (NO (t, j) reaches precision {MIN_PRECISION}: highest precision)"
    return f"t = {t:.2f}, j = {j:.2f}{note}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pairs", type=Path, default=Path(__file__).parent / "paraphrase_pairs.jsonl"
    )
    args = parser.parse_args(argv)
    pairs = [json.loads(line) for line in args.pairs.read_text().splitlines() if line.strip()]
    labels = np.array([p["paraphrase"] for p in pairs], dtype=bool)
    cosine = cosines(pairs)
    everything = np.ones(len(pairs), dtype=bool)
    grid = {
        (float(t), j): merged_by_rule(pairs, cosine, float(t), j)
        for t in THRESHOLDS
        for j in OVERLAPS
    }
    print(f"{len(pairs)} pairs: {labels.sum()} paraphrases, {(~labels).sum()} non-paraphrases")

    t, j, met = choose(grid, labels, everything)
    words_only = merged_by_rule(pairs, cosine, 2.0, 1.0)  # no cosine can reach 2
    cos_t = max(THRESHOLDS, key=lambda c: scores(cosine >= c, labels)[2])
    cos_best_p = max(scores(cosine >= c, labels)[0] for c in THRESHOLDS)
    print("\nparts alone:")
    print(f"  equal keys (no threshold):   {describe(words_only, labels)}")
    print(f"  cosine >= {cos_t:.2f} (best F1):     {describe(cosine >= cos_t, labels)}")
    print(f"    (highest precision of cosine alone, t in 0.50-0.98: {cos_best_p:.3f})")

    print("\nthe rule, precision/recall:")
    print("   t  " + "".join(f"   j = {o:.2f}  " for o in OVERLAPS))
    for c in THRESHOLDS:
        cells = (scores(grid[float(c), o], labels)[:2] for o in OVERLAPS)
        print(f"{c:.2f}  " + "".join(f"{p:.3f}/{r:.3f}  " for p, r in cells))

    print(f"\nchosen: {rule_name(t, j, met, bool(np.all(grid[t, j] == words_only)))}")
    print(f"  {describe(grid[t, j], labels)}")

    print("\nleave-half-out (line numbers from 1):")
    line = np.arange(1, len(pairs) + 1)
    for fit, held in (("even", "odd"), ("odd", "even")):
        on_fit = line % 2 == (fit == "odd")
        ft, fj, fmet = choose(grid, labels, on_fit)
        same = bool(np.all(grid[ft, fj][on_fit] == words_only[on_fit]))
        print(f"  chosen on {fit} lines: {rule_name(ft, fj, fmet, same)}")
        for name, rows in ((fit, on_fit), (held, ~on_fit)):
            print(f"    on {name + ' lines:':12} {describe(grid[ft, fj][rows], labels[rows])}")

    merged = grid[t, j]
    for title, rows in (
        ("false positives", merged & ~labels),
        ("false negatives", ~merged & labels),
    ):
        print(f"\n{title} of the chosen rule ({rows.sum()}; cosine):")
        for i in np.flatnonzero(rows):
            print(f"  {cosine[i]:.3f}  {pairs[i]['a']!r} / {pairs[i]['b']!r}")


if __name__ == "__main__":
    main()
