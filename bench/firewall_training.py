"""Training of the poisoning firewall's classifier (``memvault.firewall_classifier``).

The data: every labelled set ``bench/poisoning.py`` reads (``tests/core/text/poisoning*.yaml``:
tuning 1 to 6, held out 0 to 10; never ``poisoning_held_out_11.yaml`` or ``_12.yaml``, see
:data:`NOT_TRAINED_ON`), the facts of ``tests/core/text/extracted_facts.yaml`` (as an LLM
extractor writes them, in two folds) and the turns of the LoCoMo conversations in ``--locomo`` as
chat (benign). Each chunk of a text
(``memvault.firewall_classifier.chunks``: its sentences and the whole) is embedded once with
all-MiniLM-L6-v2. A chat memory gives every chunk as ``benign``; an attack gives its whole text
as its family (``pattern``; held out 0's attacks, unlabelled, take the family the patterns give
them). Beside the embedding a setting may read the chunk's word-piece n-grams
(``memvault.firewall_classifier.Ngrams``, the runtime's own features: MiniLM's token ids single
and in adjacent pairs, sublinear TF-IDF, L2-normalised, times a scale; the n-grams kept and
their idf are counted on the training folds only). A multinomial logistic regression
(scikit-learn's ``LogisticRegression``, lbfgs, deterministic; on a scipy sparse matrix with
n-grams) is fitted on them.

The choice is made by cross-validation only: for each regularisation ``C``, class weighting,
families fitted and n-gram scale of :data:`GRID`, each labelled set is
held out in turn (trained on the others and all of LoCoMo), then each LoCoMo conversation (trained
on the others and all the sets); a held-out text scores its chunks' highest probability of not being
benign. The threshold is the lowest from 0.5 with, pooled over the folds, at most
:data:`BENIGN_GOAL` of the held-out sets' chat memories flagged by both layers (0.5 %; the
tuning sets' chat, written as attacks' twins, is not budgeted) and :data:`LOCOMO_GOAL` of the
LoCoMo turns (0.3 %) and :data:`FACTS_GOAL` of the extracted facts (0.5 %); the setting that then
holds the most attacks (of every set) wins. It prints, for the best setting of each n-gram scale,
and for each held-out set and conversation, chat memories flagged and attacks held by the patterns
alone, the classifier alone and both. With ``--write`` it fits the chosen setting on everything and
writes ``src/memvault/data/firewall_classifier.npz``.

Usage:
    uv run python bench/firewall_training.py --locomo ../shared/data/locomo [--write]
        [--cache FILE.npz]  # keeps the chunk embeddings between runs
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.poisoning import extracted_facts, labelled_sets  # noqa: E402
from memvault.conversations import load_conversation  # noqa: E402
from memvault.firewall import screen_patterns  # noqa: E402
from memvault.firewall_classifier import (  # noqa: E402
    BENIGN,
    FAMILIES,
    WEIGHTS_FILE,
    Ngrams,
    chunks,
    ngram_keys,
)
from memvault.minilm import MODEL_SHA256, MiniLMEmbedder  # noqa: E402

NOT_TRAINED_ON = ("held out 11", "held out 12")
"""Sets never fitted on: written to measure the fifth round's weights (held out 8-10, which
measured the fourth's, and tuning 6 are fitted on from the fifth round)."""
WORDED = ("override", "directive", "markup", "link")
"""The families whose attacks are in words (hidden characters and encodings are not)."""
GRID = [(c, None, WORDED, scale) for scale in (1.0, 2.0, 4.0) for c in (30.0, 100.0)]
"""The settings cross-validated: ``C`` and ``class_weight`` of ``LogisticRegression``, the
families whose attacks it is fitted on (all, or those in words only), and the scale of the
word-piece n-gram features beside the embedding (``0``: none; else their L2-normalised TF-IDF
row times it, :class:`memvault.firewall_classifier.Ngrams`). The fourth to sixth rounds
(2026-12-05) try only the four worded families with n-grams (``C`` 30 or 100, scale 1, 2 or
4): in the third, on the same code, every setting without n-grams held 5-6 points fewer
attacks in cross-validation and every setting fitted on all six families about 1 point fewer
(``bench/README.md``); ``C = 1`` and balanced class weights lost in every fold of the first
round."""
MIN_DF = 3
"""An n-gram is kept when at least this many training chunks hold it (it bounds the weights'
size: 27,889 n-grams in the sixth round's weights)."""
BENIGN_GOAL = 0.005
"""The share of the held-out sets' chat memories (``held out ...``: LoCoMo-like chat with its
hard cases, written to measure) that both layers may flag, pooled over the folds: half the
goal of 1 %, the other half a margin for a fresh set (the held-out sets are mostly English:
tuning 4 and 5's hard chat in eight languages, not budgeted, is flagged at 5-9 % in
cross-validation). The tuning sets' chat (written as the
twins of attacks, to teach the classifier where the line runs) is fitted on, not budgeted: with
it in the budget the threshold is set by the hardest twins (in the fifth round, 0.993, which
held 3 points fewer of held out 8-10's attacks at 0.1 point less of their chat flagged)."""
FACTS = "extracted facts"
"""The folds of ``tests/core/text/extracted_facts.yaml`` (its facts alternately in halves 1 and
2): memories as an LLM extractor writes them ("The user's phone number is 555-0147."), fitted as
chat and budgeted by :data:`FACTS_GOAL`."""
FACTS_GOAL = 0.005
"""The share of the extracted facts both layers may flag, pooled over their two folds. The
held-out sets' chat is in the speaker's words, while the memories an agent stores are mostly
facts in the third person, which read closer to planted records: the fifth round's first
weights, fitted and budgeted without them (threshold 0.53), flagged 9.1 % of them (the sixth
round's, cross-validated, 0.4 %) ("The user's
partner's email address is ...", "The user's phone number is 555-0101.")."""
LOCOMO_GOAL = 0.003
"""The share of LoCoMo turns both layers may flag, pooled over the conversations."""


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
    for i, text in enumerate(extracted_facts()):
        add(text, BENIGN, f"{FACTS} {i % 2 + 1}")
    return found, pieces


def embedded(pieces: list[str], cache: Path | None) -> np.ndarray:
    """The chunks' embeddings, shape ``(len(pieces), 384)``: each chunk ``cache`` holds (by its
    SHA-256, for the same model) read from it, the others computed (and ``cache`` rewritten
    with every chunk's, if given)."""
    digests = [hashlib.sha256(p.encode("utf-8", "surrogatepass")).hexdigest() for p in pieces]
    known: dict[str, np.ndarray] = {}
    if cache is not None and cache.is_file():
        with np.load(cache, allow_pickle=False) as stored:
            if "digests" in stored.files and str(stored["model"]) == MODEL_SHA256:
                known = dict(zip(stored["digests"].tolist(), stored["vectors"]))
    missing = list(dict.fromkeys(d for d in digests if d not in known))
    if missing:
        text_of = dict(zip(digests, pieces))
        computed = MiniLMEmbedder().embed_array([text_of[d] for d in missing])
        known.update(zip(missing, computed))
        if cache is not None:
            np.savez(
                cache,
                vectors=np.stack(list(known.values())),
                digests=np.array(list(known)),
                model=np.array(MODEL_SHA256),
            )
    return np.stack([known[d] for d in digests]).astype(np.float32)


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


@dataclass
class Chunks:
    """Every chunk's embedding (``vectors``, shape ``(n, 384)``) and word-piece ids."""

    vectors: np.ndarray
    token_ids: list[list[int]]


def ngrams_of(chunks_: Chunks, found: list[Memory]) -> Ngrams:
    """The n-grams held by at least :data:`MIN_DF` chunks of ``found``, with their smoothed
    inverse document frequency ``ln((1 + n) / (1 + df)) + 1`` over those ``n`` chunks (as
    scikit-learn's ``TfidfTransformer``); no weights yet."""
    rows = [row for memory in found for row in memory.rows]
    seen = [np.unique(ngram_keys(chunks_.token_ids[row])) for row in rows]
    keys, df = np.unique(np.concatenate(seen), return_counts=True)
    kept = df >= MIN_DF
    idf = np.log((1 + len(rows)) / (1 + df[kept])) + 1
    return Ngrams(keys[kept], idf.astype(np.float32), np.zeros((0, int(kept.sum())), np.float32))


def design(chunks_: Chunks, ngrams: Ngrams | None, scale: float):
    """The matrix fitted: the embeddings, and beside them (sparse) the n-gram features
    (:meth:`Ngrams.features`, the runtime's) times ``scale`` when ``ngrams`` is given."""
    if ngrams is None:
        return chunks_.vectors
    from scipy import sparse

    indptr, columns, values = ngrams.features(chunks_.token_ids)
    lexical = sparse.csr_matrix(
        (values * scale, columns, indptr), shape=(len(chunks_.token_ids), len(ngrams.keys))
    )
    return sparse.hstack([sparse.csr_matrix(chunks_.vectors), lexical], format="csr")


def fit(chunks_: Chunks, found: list[Memory], setting: tuple):
    """A ``LogisticRegression`` fitted on ``found`` with ``setting`` (of :data:`GRID`), the
    n-grams it reads (or ``None``) and its design matrix over all chunks."""
    from sklearn.linear_model import LogisticRegression

    c, weight, trained, scale = setting
    ngrams = ngrams_of(chunks_, found) if scale > 0 else None
    matrix = design(chunks_, ngrams, scale)
    rows, labels = training_rows(found, trained)
    model = LogisticRegression(C=c, class_weight=weight, max_iter=5000)
    model.fit(matrix[rows], labels)
    return model, ngrams, matrix


def attack_scores(model, matrix, found: list[Memory]) -> np.ndarray:
    """Each text's highest probability, over its chunks, of not being benign."""
    benign = list(model.classes_).index(BENIGN)
    rows = [row for memory in found for row in memory.rows]
    attack = np.zeros(matrix.shape[0])
    attack[rows] = 1.0 - model.predict_proba(matrix[rows])[:, benign]
    return np.array([attack[list(memory.rows)].max() for memory in found])


def out_of_fold(chunks_: Chunks, found: list[Memory], setting: tuple) -> np.ndarray:
    """Every text's score from the model fitted without its fold (n-grams and their idf
    included: they are counted on the other folds only)."""
    scores = np.zeros(len(found))
    for fold in sorted({memory.fold for memory in found}):
        inside = [i for i, memory in enumerate(found) if memory.fold == fold]
        model, _, matrix = fit(chunks_, [m for m in found if m.fold != fold], setting)
        scores[inside] = attack_scores(model, matrix, [found[i] for i in inside])
    return scores


def lowest_threshold(found: list[Memory], scores: np.ndarray) -> float:
    """The lowest threshold, from 0.5, within :data:`BENIGN_GOAL` of the held-out sets' chat,
    :data:`FACTS_GOAL` of the extracted facts and :data:`LOCOMO_GOAL` of the LoCoMo turns
    flagged by both layers (each pooled)."""
    for threshold in sorted({round(float(s), 4) for s in scores} | {0.5}):
        if threshold < 0.5 or threshold >= 1.0:
            continue
        flagged = [m.patterns or s >= threshold for m, s in zip(found, scores)]
        sets = [
            f for m, f in zip(found, flagged) if m.label == BENIGN and m.fold.startswith("held out")
        ]
        turns = [f for m, f in zip(found, flagged) if "locomo" in m.fold]
        facts = [f for m, f in zip(found, flagged) if m.fold.startswith(FACTS)]
        if facts and np.mean(facts) > FACTS_GOAL:
            continue
        if np.mean(sets) <= BENIGN_GOAL and np.mean(turns) <= LOCOMO_GOAL:
            return threshold
    print(f"no threshold keeps within the budgets (the patterns alone may exceed {BENIGN_GOAL})")
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


def weights(chunks_: Chunks, found: list[Memory], setting: tuple, threshold: float) -> dict:
    """The arrays ``--write`` writes: ``setting`` fitted on everything, and ``threshold``. The
    n-grams' weights are stored times their scale, so the runtime reads unscaled features."""
    model, ngrams, _ = fit(chunks_, found, setting)
    classes = [BENIGN] + [family for family in FAMILIES if family in model.classes_]
    order = [list(model.classes_).index(name) for name in classes]
    c, weight, _, scale = setting
    coef = model.coef_[order]
    lexical = {}
    if ngrams is not None:
        lexical = {
            "ngram_keys": ngrams.keys.astype(np.int32),
            "ngram_idf": ngrams.idf,
            "ngram_coef": (coef[:, MiniLMEmbedder.dim :] * scale).astype(np.float32),
        }
    return {
        "coef": coef[:, : MiniLMEmbedder.dim].astype(np.float32),
        "intercept": model.intercept_[order].astype(np.float32),
        "classes": np.array(classes),
        "threshold": np.array(threshold),
        "model": np.array(MiniLMEmbedder.name),
        "model_sha256": np.array(MODEL_SHA256),
        "C": np.array(c),
        "class_weight": np.array(str(weight)),
        "ngram_scale": np.array(scale),
        **lexical,
    }


def setting_of(stored: dict) -> tuple:
    """The :data:`GRID` setting ``stored`` weights were fitted with."""
    weight = str(stored["class_weight"])
    trained = tuple(str(name) for name in stored["classes"][1:])
    scale = float(stored["ngram_scale"]) if "ngram_scale" in stored else 0.0
    return float(stored["C"]), None if weight == "None" else weight, trained, scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, required=True, help="folder of LoCoMo files")
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS_FILE.name}")
    parser.add_argument("--cache", type=Path, help="an .npz keeping the chunk embeddings")
    args = parser.parse_args()
    found, pieces = memories(args.locomo)
    chunks_ = Chunks(embedded(pieces, args.cache), MiniLMEmbedder().token_ids(pieces))
    print(f"{len(found)} texts ({len(pieces)} chunks) embedded")
    tried = []
    for setting in GRID:
        scores = out_of_fold(chunks_, found, setting)
        threshold = lowest_threshold(found, scores)
        both, alone = held_shares(found, scores, threshold)
        c, weight, trained, scale = setting
        print(
            f"C={c:<5} class_weight={weight!s:<9} families {len(trained)} n-grams x{scale}: "
            f"threshold {threshold:.4f}, attacks held {100 * both:.1f} % "
            f"(classifier alone {100 * alone:.1f} %)",
            flush=True,
        )
        tried.append(((both, alone), setting, threshold, scores))
    for scale in sorted({setting[3] for setting in GRID}):
        _, setting, threshold, scores = max(
            (t for t in tried if t[1][3] == scale), key=lambda t: t[0]
        )
        print(f"\nbest with n-grams x{scale}: {setting}, threshold {threshold:.4f}")
        print("\n".join(table(found, scores, threshold)))
    _, setting, threshold, scores = max(tried, key=lambda t: t[0])
    print(f"\nchosen: {setting}, threshold {threshold:.4f} (cross-validated)")
    fitted = weights(chunks_, found, setting, threshold)
    if args.write:
        np.savez_compressed(WEIGHTS_FILE, **fitted)
        print(f"wrote {WEIGHTS_FILE} ({WEIGHTS_FILE.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
