"""Context bleed on LoCoMo: how often a turn next to the evidence outranks the evidence.

A stored turn is embedded and indexed with its ``context`` (:func:`memvault.lexical.
indexed_text`): the session's date and the turns around it (:data:`memvault.conversations.
CONTEXT_BEFORE` before, :data:`~memvault.conversations.CONTEXT_AFTER` after). So the words of
an evidence turn are also in the records of its neighbours, whose contexts quote it, and a
neighbour can rank above the evidence (issue 29, finding 7).

For every question with evidence, the store's hybrid ranking is made as
``bench/ranking_choice.py`` makes it (the library's BM25 over the indexed text, MiniLM cosines,
:func:`memvault.fusion.blend` with the shipped constants and the dates the question names),
and counted:

- **neighbour first**: the top hit is not evidence but quotes an evidence turn in its context;
- **neighbour above evidence**: an evidence turn is outranked by a non-evidence turn whose
  context quotes it (per evidence turn, of those ranked in the fused block);
- R@1/5/10/20 as ``bench/locomo.py`` counts them.

Three ways of giving a turn's own words more weight than its context's are scored the same
way, each for a few strengths, and held out (for each conversation, the strength best on the
other four by mean R@k is scored on it):

- **own-text bonus**: each fused score gets ``strength`` times the item's BM25 over its own
  text alone (normalised by the block's best) added, after fusion;
- **own text counted more**: in the BM25 ranking, the own text's words count ``1 + strength``
  times (a field weight, as BM25F gives one; the context already holds the turn once);
- **own text embedded**: the dense ranking's cosine is ``(1 - strength)`` times the store's
  (text and context embedded) plus ``strength`` times the own text's alone.

Usage:
    uv run python bench/context_bleed.py ../shared/data/locomo [--vectors FILE.npz]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cached_embedder import CachedEmbedder  # noqa: E402
from locomo import conversation_turns, evidence_ids, recalls  # noqa: E402
from ranking_choice import SHIPPED, Conversation  # noqa: E402

from memvault.conversations import CONTEXT_AFTER, CONTEXT_BEFORE  # noqa: E402
from memvault.fusion import FUSION_DEPTH, blend  # noqa: E402
from memvault.lexical import bm25, indexed_text, query_terms, terms_of  # noqa: E402
from memvault.model import Ranked  # noqa: E402

VARIANTS = {
    "own-text bonus": (0.0, 0.1, 0.5, 1.0, 2.0),
    "own text counted more": (0.0, 0.1, 0.5, 1.0, 2.0),
    "own text embedded": (0.0, 0.25, 0.5, 0.75, 1.0),
}
"""The strengths scored per variant (0: the shipped ranking)."""


def quotes(conv: Conversation, holder: str, quoted: str) -> bool:
    """Whether turn ``holder``'s context holds turn ``quoted`` (another turn of its window)."""
    h, q = conv.ids.index(holder), conv.ids.index(quoted)
    same_session = holder.split(":")[0] == quoted.split(":")[0]
    return holder != quoted and same_session and h - CONTEXT_BEFORE <= q <= h + CONTEXT_AFTER


class OwnText:
    """A conversation's turns' own words and embeddings (without their context)."""

    def __init__(self, file: Path, embedder: CachedEmbedder) -> None:
        turns = conversation_turns(file)
        own = [terms_of(turn.text) for turn in turns]
        self.lengths = np.array([length for _, length in own], dtype=np.float64)
        questions = [q["question"] for q in json.loads(file.read_text())["qa"] if evidence_ids(q)]
        self.frequencies = [
            np.array([[counts.get(t, 0) for t in query_terms(q)] for counts, _ in own])
            for q in questions
        ]
        asked = embedder.array(questions, queries=True)
        self.cosines = asked @ embedder.array([turn.text for turn in turns]).T
        self.indexed_cosines = asked @ embedder.array([indexed_text(t.value()) for t in turns]).T


def _bm25_top(ids: list[str], frequencies: np.ndarray, lengths: np.ndarray) -> Ranked:
    """The BM25 top of a question over ``frequencies`` (one row a turn), shipped constants."""
    if frequencies.size == 0:
        return []
    rows = np.nonzero(frequencies.sum(axis=1) > 0)[0]
    scores = bm25(
        frequencies[rows],
        lengths[rows],
        documents=len(ids),
        mean_length=float(lengths.mean()),
        k1=SHIPPED.k1,
        b=SHIPPED.b,
    )
    order = np.lexsort((rows, -scores))[:FUSION_DEPTH]
    return [(ids[rows[j]], float(scores[j])) for j in order]


def ranking(conv: Conversation, own: OwnText, q: int, variant: str, strength: float) -> list[str]:
    """A question's hybrid ranking: the store's (``variant`` "shipped"), or a variant's."""
    s = SHIPPED
    lexical = conv.lexical(q, s.k1, s.b)
    if variant == "own text counted more" and conv.frequencies[q].size:
        frequencies = conv.frequencies[q] + strength * own.frequencies[q]
        lexical = _bm25_top(conv.ids, frequencies, conv.lengths + strength * own.lengths)
    dense = conv.dense[q]
    if variant == "own text embedded":
        mixed = (1 - strength) * own.indexed_cosines[q] + strength * own.cosines[q]
        order = np.lexsort((np.arange(len(mixed)), -mixed))[:FUSION_DEPTH]
        dense = [(conv.ids[j], float(mixed[j])) for j in order]
    dated = conv.dated(q, s.slack_days) if s.bonus else set()
    fused = blend(dense, lexical, weight=s.weight, dated=dated, bonus=s.bonus)
    if variant == "own-text bonus" and fused and own.frequencies[q].size:
        scores = dict(_bm25_top(conv.ids, own.frequencies[q], own.lengths))
        best = max([scores.get(i, 0.0) for i, _ in fused]) or 1.0
        fused = sorted(
            ((i, f + strength * scores.get(i, 0.0) / best) for i, f in fused),
            key=lambda pair: (-pair[1], pair[0]),
        )
    return [i for i, _ in fused]


def bleed(
    conversations: list[Conversation],
    owns: list[OwnText],
    variant: str = "shipped",
    strength: float = 0.0,
) -> dict:
    """The counts of the module docstring, for the store's ranking or a variant's."""
    first, above, evidence_ranked, questions = 0, 0, 0, 0
    rows = []
    for conv, own in zip(conversations, owns):
        for q, wanted in enumerate(conv.wanted):
            ranked = ranking(conv, own, q, variant, strength)
            rows.append(recalls(ranked, wanted))
            questions += 1
            wanted_known = [w for w in wanted if w in conv.ids]
            if ranked and ranked[0] not in wanted:
                first += any(quotes(conv, ranked[0], w) for w in wanted_known)
            for w in wanted_known:
                if w not in ranked:
                    continue
                evidence_ranked += 1
                higher = ranked[: ranked.index(w)]
                above += any(i not in wanted and quotes(conv, i, w) for i in higher)
    mean = np.array(rows).mean(axis=0)
    return {
        "rows": np.array(rows),
        "questions": questions,
        "neighbour first": round(first / questions, 4),
        "evidence turns ranked": evidence_ranked,
        "neighbour above evidence": round(above / max(1, evidence_ranked), 4),
        "R@1/5/10/20": [round(float(v), 4) for v in mean],
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--conversations", type=int, help="only the first N files (sorted)")
    parser.add_argument("--vectors", type=Path, help="an .npz of vectors, read and saved")
    args = parser.parse_args(argv)
    files = sorted(args.data.glob("*.json"))[: args.conversations]
    if not files:
        raise SystemExit(f"no LoCoMo *.json files in {args.data}")
    embedder = CachedEmbedder()
    if args.vectors:
        embedder.load(args.vectors)
    conversations = [Conversation(file, embedder) for file in files]
    owns = [OwnText(file, embedder) for file in files]
    if args.vectors:
        embedder.save(args.vectors)
    shipped = bleed(conversations, owns)
    figures: dict = {"shipped": {k: v for k, v in shipped.items() if k != "rows"}}
    print(
        "| ranking | R@1/5/10/20 (on all five; LOCO where held out) | neighbour first | "
        "neighbour above evidence |\n"
        "|---|---|---|---|"
    )

    def row(label: str, got: dict, recall: np.ndarray) -> None:
        cells = " / ".join(f"{v:.3f}" for v in recall)
        print(
            f"| {label} | {cells} | {got['neighbour first']:.3f} | "
            f"{got['neighbour above evidence']:.3f} |"
        )

    row("shipped", shipped, shipped["rows"].mean(axis=0))
    for variant, strengths in VARIANTS.items():
        got = {
            strength: [bleed([c], [o], variant, strength) for c, o in zip(conversations, owns)]
            for strength in strengths
        }
        held = []
        for n in range(len(conversations)):
            others = [m for m in range(len(conversations)) if m != n] or [n]
            pick = max(
                strengths,
                key=lambda x: float(np.concatenate([got[x][m]["rows"] for m in others]).mean()),
            )
            held.append(got[pick][n]["rows"])
        for strength in strengths[1:]:
            pooled = bleed(conversations, owns, variant, strength)
            row(f"{variant} {strength:g}", pooled, pooled["rows"].mean(axis=0))
            figures[f"{variant} {strength:g}"] = {k: v for k, v in pooled.items() if k != "rows"}
        held_out = np.concatenate(held).mean(axis=0)
        print(f"| {variant}, held out | " + " / ".join(f"{v:.3f}" for v in held_out) + " | | |")
        figures[f"{variant}, held out"] = [round(float(v), 4) for v in held_out]
    return figures


if __name__ == "__main__":
    main()
