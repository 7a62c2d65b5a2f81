"""A second embedder's cosine blended into memvault's hybrid top N, on LoCoMo, LOCO.

For each conversation: a ``MemoryStore`` with memvault's default embedder (MiniLM), filled as
in ``bench/locomo.py``; for each question with evidence, the hybrid top N (scores as the store
reports them) is rescored by

    (1 - a) * hybrid + a * cosine(candidate(question), candidate(memory text))

each min-max normalised over the N, optionally keeping the hybrid's first item first. The
candidate embeds each memory text once per run (as a store keeping a second vector per memory
would) and each question with its query form. N in :data:`DEPTHS`, a in :data:`WEIGHTS`; for each
conversation the variant with the best mean of R@1/5/10/20 on the other four is scored on it.

Usage:
    uv run python bench/rerank.py ../shared/data/locomo --embedder e5
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from itertools import groupby
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cached_embedder import EMBEDDERS, CachedEmbedder  # noqa: E402
from locomo import evidence_ids, loco_tables, recalls  # noqa: E402

from memvault import MemoryStore  # noqa: E402
from memvault.conversations import load_conversation  # noqa: E402

DEPTHS = (10, 20, 30, 50)
WEIGHTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
SHIPPED = "hybrid"


def _minmax(values: np.ndarray) -> np.ndarray:
    span = values.max() - values.min()
    return (values - values.min()) / span if span else np.ones_like(values)


def rescored(ids: list[str], hybrid: np.ndarray, cosine: np.ndarray, a: float, keep: bool):
    order = np.argsort(-((1 - a) * _minmax(hybrid) + a * _minmax(cosine)), kind="stable")
    ranked = [ids[i] for i in order]
    if keep:
        ranked.remove(ids[0])
        ranked.insert(0, ids[0])
    return ranked


VARIANTS = {
    f"N={n} a={a}{' top' if keep else ''}": (n, a, keep)
    for n in DEPTHS
    for a in WEIGHTS
    for keep in (False, True)
}


def evaluate(data: Path, candidate: CachedEmbedder) -> dict:
    rows: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for file in sorted(data.glob("*.json")):
            turns = load_conversation(file)
            text = {t.turn_id: f"{t.text}\n{t.context}" for t in turns}
            qa = [q for q in json.loads(file.read_text())["qa"] if evidence_ids(q)]
            candidate.warm([q["question"] for q in qa], queries=True)
            candidate.warm(list(text.values()))
            store = MemoryStore(Path(tmp) / file.stem, embedder=CachedEmbedder())
            namespace = ("locomo", file.stem)
            for _, session in groupby(turns, key=lambda t: t.session):
                session = list(session)
                store.put_many(
                    namespace, [(t.key, t.value()) for t in session], timestamp=session[0].timestamp
                )
            got: dict[str, list] = defaultdict(list)
            for q in qa:
                wanted = evidence_ids(q)
                hits = store.search(namespace, query=q["question"], limit=max(DEPTHS))
                ids = [hit.value["turn_id"] for hit in hits]
                hybrid = np.array([hit.score for hit in hits])
                vectors = candidate.array([text[i] for i in ids])
                cosine = vectors @ candidate.array([q["question"]], queries=True)[0]
                got["category"].append(q["category"])
                got[SHIPPED].append(recalls(ids, wanted))
                for name, (n, a, keep) in VARIANTS.items():
                    ranked = rescored(ids[:n], hybrid[:n], cosine[:n], a, keep) + ids[n:]
                    got[name].append(recalls(ranked, wanted))
            store.close()
            rows[file.stem] = got
    picked = {
        conv: max(
            VARIANTS,
            key=lambda v: float(
                np.mean(np.concatenate([rows[c][v] for c in rows if c != conv] or [rows[conv][v]]))
            ),
        )
        for conv in rows
    }
    out: dict = {"picked": picked, "conversations": {}}
    labels = {"hybrid (shipped)": SHIPPED}
    for conv, got in rows.items():
        labels["LOCO pick, held out"] = picked[conv]
        temporal = np.array(got["category"]) == 2
        out["conversations"][conv] = {
            label: {
                "all": [round(float(v), 4) for v in np.array(got[name]).mean(0)],
                "temporal": [round(float(v), 4) for v in np.array(got[name])[temporal].mean(0)],
                "questions": len(got[name]),
                "temporal_questions": int(temporal.sum()),
            }
            for label, name in labels.items()
        }
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="folder of LoCoMo conversation *.json files")
    parser.add_argument("--embedder", choices=EMBEDDERS, default="e5")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--vectors", type=Path, help="an .npz of vectors, read and saved")
    args = parser.parse_args(argv)
    candidate = CachedEmbedder(EMBEDDERS[args.embedder]())
    if args.vectors:
        candidate.load(args.vectors)
    result = evaluate(args.data, candidate)
    if args.vectors:
        candidate.save(args.vectors)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"rerank-{args.embedder}.json").write_text(json.dumps(result, indent=2))
    print(f"The hybrid top N rescored with {args.embedder}, leave-one-conversation-out")
    print(loco_tables(result))
    return result


if __name__ == "__main__":
    main()
