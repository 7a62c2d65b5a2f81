"""Training of the poisoning firewall's classifier (``memvault.firewall_classifier``).

The data: every labelled set ``bench/poisoning.py`` reads (``tests/core/text/poisoning*.yaml``:
tuning 1 to 4, held out 0 to 5; never ``poisoning_held_out_6.yaml`` or ``_7.yaml``, each kept
for one measurement)
and the turns of the LoCoMo conversations in ``--locomo`` as chat (benign). Each chunk of a text
(``memvault.firewall_classifier.chunks``: its sentences and the whole) is embedded once with
all-MiniLM-L6-v2. A chat memory gives every chunk as ``benign``; an attack gives its whole text
as its family (``pattern``; held out 0's attacks, unlabelled, take the family the patterns give
them). A multinomial logistic regression (scikit-learn's ``LogisticRegression``, lbfgs,
deterministic) is fitted on them.

The choice is made by cross-validation only: for each regularisation ``C`` and class weighting of
:data:`GRID`, each labelled set is held out in turn (trained on the others and all of LoCoMo),
then each LoCoMo conversation (trained on the others and all the sets); a held-out text scores
its chunks' highest probability of not being benign. The threshold is the lowest with, pooled
over the folds, at most :data:`BENIGN_GOAL` of the sets' chat memories and :data:`LOCOMO_GOAL` of
the LoCoMo turns flagged by the classifier where the patterns pass them (0.4 % and 0.3 %: the
patterns flag about 0.7 % of the sets' chat on their own, and the classifier cannot clear a
text they hold, so its budget is what it adds); the setting that then holds the most
attacks wins. It prints, for that setting and each held-out set and conversation, chat memories
flagged and attacks held by the patterns alone, the classifier alone and both. With ``--write``
it fits the chosen setting on everything and writes ``src/memvault/data/firewall_classifier.npz``.

Usage:
    uv run python bench/firewall_training.py --locomo ../shared/data/locomo [--write]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.poisoning import labelled_sets  # noqa: E402
from memvault.conversations import load_conversation  # noqa: E402
from memvault.firewall import screen_patterns  # noqa: E402
from memvault.firewall_classifier import BENIGN, FAMILIES, WEIGHTS_FILE, chunks  # noqa: E402
from memvault.minilm import MODEL_SHA256, MiniLMEmbedder  # noqa: E402

NOT_TRAINED_ON = ("held out 6", "held out 7")
"""Sets never trained or measured on here (written for one measurement by the lead)."""
WORDED = ("override", "directive", "markup", "link")
"""The families whose attacks are in words (hidden characters and encodings are not)."""
GRID = [(c, None, trained) for trained in (FAMILIES, WORDED) for c in (10.0, 100.0)]
"""The settings cross-validated: ``C`` and ``class_weight`` of ``LogisticRegression``, and the
families whose attacks it is fitted on (all, or those in words only). ``C = 1`` and balanced
class weights held fewer attacks in every fold of the first round (2026-12-04), so the second
round leaves them out."""
BENIGN_GOAL = 0.004
LOCOMO_GOAL = 0.003


@dataclass
class Memory:
    """A labelled text: its label (``"benign"`` or a family), fold, and chunk rows."""

    text: str
    label: str
    fold: str
    rows: range
    patterns: bool
    """Whether the patterns hold it (``screen_patterns``)."""


def memories(locomo: Path) -> tuple[list[Memory], list[str]]:
    """Every labelled text and LoCoMo turn, and the chunks to embed (``Memory.rows`` index it)."""
    found: list[Memory] = []
    pieces: list[str] = []

    def add(text: str, label: str, fold: str) -> None:
        text_pieces = chunks(text)
        rows = range(len(pieces), len(pieces) + len(text_pieces))
        pieces.extend(text_pieces)
        found.append(Memory(text, label, fold, rows, screen_patterns(text) is not None))

    for name, labelled in labelled_sets().items():
        if name in NOT_TRAINED_ON:
            continue
        for text in labelled["benign"]:
            add(text, BENIGN, name)
        for attack in labelled["attacks"]:
            family = attack.get("pattern") or (screen_patterns(attack["text"]) or "directive")
            add(attack["text"], family.split(":")[0], name)
    for path in sorted(locomo.glob("*.json")):
        for turn in load_conversation(path):
            add(turn.text, BENIGN, f"locomo {path.stem}")
    return found, pieces


def training_rows(found: list[Memory], trained: tuple[str, ...]) -> tuple[list[int], list[str]]:
    """The chunk rows fitted and their labels: every chunk of a chat text, the whole text of an
    attack of a family in ``trained``."""
    rows: list[int] = []
    labels: list[str] = []
    for memory in found:
        if memory.label != BENIGN and memory.label not in trained:
            continue
        kept = list(memory.rows) if memory.label == BENIGN else [memory.rows[-1]]
        rows += kept
        labels += [memory.label] * len(kept)
    return rows, labels


def fit(vectors: np.ndarray, found: list[Memory], setting: tuple):
    """A ``LogisticRegression`` fitted on ``found`` with ``setting`` (of :data:`GRID`)."""
    from sklearn.linear_model import LogisticRegression

    c, weight, trained = setting
    rows, labels = training_rows(found, trained)
    model = LogisticRegression(C=c, class_weight=weight, max_iter=5000)
    model.fit(vectors[rows], labels)
    return model


def attack_scores(model, vectors: np.ndarray, found: list[Memory]) -> np.ndarray:
    """Each text's highest probability, over its chunks, of not being benign."""
    benign = list(model.classes_).index(BENIGN)
    attack = 1.0 - model.predict_proba(vectors)[:, benign]
    return np.array([attack[list(memory.rows)].max() for memory in found])


def out_of_fold(vectors: np.ndarray, found: list[Memory], setting: tuple) -> np.ndarray:
    """Every text's score from the model fitted without its fold."""
    scores = np.zeros(len(found))
    for fold in sorted({memory.fold for memory in found}):
        inside = [i for i, memory in enumerate(found) if memory.fold == fold]
        model = fit(vectors, [m for m in found if m.fold != fold], setting)
        scores[inside] = attack_scores(model, vectors, [found[i] for i in inside])
    return scores


def lowest_threshold(found: list[Memory], scores: np.ndarray) -> float:
    """The lowest threshold within :data:`BENIGN_GOAL` and :data:`LOCOMO_GOAL` (pooled), counting
    the chat the classifier flags where the patterns pass it (the patterns' own false alarms
    are theirs: the classifier only adds to what is held)."""
    for threshold in sorted({round(float(s), 4) for s in scores} | {0.5}):
        if threshold <= 0.0 or threshold >= 1.0:
            continue
        flagged = [not m.patterns and s >= threshold for m, s in zip(found, scores)]
        sets = [f for m, f in zip(found, flagged) if m.label == BENIGN and "locomo" not in m.fold]
        turns = [f for m, f in zip(found, flagged) if "locomo" in m.fold]
        if np.mean(sets) <= BENIGN_GOAL and np.mean(turns) <= LOCOMO_GOAL:
            return threshold
    return 0.9999


def table(found: list[Memory], scores: np.ndarray, threshold: float) -> list[str]:
    """Per fold: chat flagged and attacks held by the patterns, the classifier, both."""
    lines = [
        f"{'held out':<14}{'chat':>6}  {'flagged: rule  clf  both':<26}{'attacks':>8}  "
        "held: rule      clf      both"
    ]
    for fold in list(dict.fromkeys(memory.fold for memory in found)) + ["all sets"]:
        inside = [
            (m, s)
            for m, s in zip(found, scores)
            if m.fold == fold or (fold == "all sets" and "locomo" not in m.fold)
        ]
        chat = [(m.patterns, s >= threshold) for m, s in inside if m.label == BENIGN]
        attacks = [(m.patterns, s >= threshold) for m, s in inside if m.label != BENIGN]

        def share(pairs: list[tuple[bool, bool]], which: int) -> str:
            hits = sum((p or c) if which == 2 else (p, c)[which] for p, c in pairs)
            return f"{100 * hits / max(len(pairs), 1):.1f}%"

        line = f"{fold:<14}{len(chat):>6}  " + "".join(f"{share(chat, w):>8}" for w in range(3))
        if attacks:
            line += f"{len(attacks):>8}  " + "".join(f"{share(attacks, w):>9}" for w in range(3))
        lines.append(line)
    return lines


def held_shares(found: list[Memory], scores: np.ndarray, threshold: float) -> tuple[float, float]:
    """The shares of the attacks held by both layers, and by the classifier alone."""
    attacks = [(m.patterns, s >= threshold) for m, s in zip(found, scores) if m.label != BENIGN]
    return (
        float(np.mean([p or c for p, c in attacks])),
        float(np.mean([c for _, c in attacks])),
    )


def weights(vectors: np.ndarray, found: list[Memory], setting: tuple, threshold: float) -> dict:
    """The arrays ``--write`` writes: ``setting`` fitted on everything, and ``threshold``."""
    model = fit(vectors, found, setting)
    classes = [BENIGN] + [family for family in FAMILIES if family in model.classes_]
    order = [list(model.classes_).index(name) for name in classes]
    c, weight, _ = setting
    return {
        "coef": model.coef_[order].astype(np.float32),
        "intercept": model.intercept_[order].astype(np.float32),
        "classes": np.array(classes),
        "threshold": np.array(threshold),
        "model": np.array(MiniLMEmbedder.name),
        "model_sha256": np.array(MODEL_SHA256),
        "C": np.array(c),
        "class_weight": np.array(str(weight)),
    }


def setting_of(stored: dict) -> tuple:
    """The :data:`GRID` setting ``stored`` weights were fitted with."""
    weight = str(stored["class_weight"])
    trained = tuple(str(name) for name in stored["classes"][1:])
    return float(stored["C"]), None if weight == "None" else weight, trained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, required=True, help="folder of LoCoMo files")
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS_FILE.name}")
    args = parser.parse_args()
    found, pieces = memories(args.locomo)
    vectors = MiniLMEmbedder().embed_array(pieces)
    print(f"{len(found)} texts ({len(pieces)} chunks) embedded")
    tried = []
    for setting in GRID:
        scores = out_of_fold(vectors, found, setting)
        threshold = lowest_threshold(found, scores)
        both, alone = held_shares(found, scores, threshold)
        c, weight, trained = setting
        print(
            f"C={c:<5} class_weight={weight!s:<9} families {len(trained)}: threshold "
            f"{threshold:.4f}, attacks held {100 * both:.1f} % "
            f"(classifier alone {100 * alone:.1f} %)"
        )
        tried.append(((both, alone), setting, threshold, scores))
    _, setting, threshold, scores = max(tried, key=lambda t: t[0])
    print(f"\nchosen: {setting}, threshold {threshold:.4f} (cross-validated)")
    print("\n".join(table(found, scores, threshold)))
    fitted = weights(vectors, found, setting, threshold)
    if args.write:
        np.savez_compressed(WEIGHTS_FILE, **fitted)
        print(f"wrote {WEIGHTS_FILE} ({WEIGHTS_FILE.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
