"""The poisoning firewall's learned layer: sentence embeddings and a logistic regression.

:func:`memvault.firewall.screen` reads a text with its patterns first; a text they pass is read
by this layer: each of its sentences (:func:`chunks`) is embedded with all-MiniLM-L6-v2
(:class:`memvault.minilm.MiniLMEmbedder`; Reimers & Gurevych 2019) and scored by a multinomial
logistic regression over ``"benign"`` and the firewall's families. A text is held when, for one
of its chunks, the probability of not being benign reaches the threshold chosen by
cross-validation; the reason names the most probable family for that chunk.

Beside the embedding, the regression may read the chunk's word pieces (:class:`Ngrams`, when the
weights carry them): the ids MiniLM's own tokenizer gives, single and in adjacent pairs, weighted
by TF-IDF with sublinear term frequency and L2-normalised (Salton & Buckley 1988; the weighting of
scikit-learn's ``TfidfVectorizer(sublinear_tf=True)``), the bag of n-grams a linear classifier
reads beside dense features as in fastText (Joulin et al. 2017). They catch the wording of an
attack the sentence embedding averages away. Only numpy runs them.

The weights (:data:`WEIGHTS_FILE`, numpy arrays, about 600 KB with n-grams) are written by
``bench/firewall_training.py --write`` from the labelled sets, extracted facts and LoCoMo turns,
with the name and SHA-256 of the model they were trained on; weights for another model are
refused (:class:`~memvault.errors.FirewallWeightsError`). They are loaded once per process.
"""

from __future__ import annotations

import hashlib
import re
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from memvault.errors import FirewallWeightsError, InvalidArgumentError, shown
from memvault.minilm import MODEL_SHA256, MiniLMEmbedder

WEIGHTS_FILE: Final = Path(__file__).parent / "data" / "firewall_classifier.npz"
"""The weights memvault ships (written by ``bench/firewall_training.py --write``)."""
FAMILIES: Final = ("override", "directive", "markup", "hidden", "encoded", "link")
"""The firewall's families (:mod:`memvault.firewall`), the classes beside ``"benign"``."""
BENIGN: Final = "benign"
MAX_CHUNKS: Final = 64
"""Chunks scored at most: a text of more sentences is read in windows of neighbouring ones."""
CHUNK_CHARS: Final = 1000
"""Characters of a chunk at most (the model reads 256 word pieces, about 1,000 characters of
English), so that every character of a text is read: a longer sentence is cut in pieces."""

_SENTENCE_END = re.compile(r"(?<=[.!?;。！？])\s+|\s*\n\s*")


def chunks(text: str) -> list[str]:
    """The pieces of ``text`` the classifier scores (it holds the text if one scores high).

    The text's sentences (split after ``.``, ``!``, ``?``, ``;`` and at line breaks; a
    sentence over :data:`CHUNK_CHARS` characters cut in pieces of that size), then the whole
    text when it has several sentences and fits in one chunk. A text of more than
    :data:`MAX_CHUNKS` sentences is read in windows of neighbouring sentences of up to
    :data:`CHUNK_CHARS` characters each (a memory holds at most 32,000 characters, so at most
    about 40 windows). Every character is in some chunk, so an attack of one sentence anywhere
    in a long ordinary memory is read on its own or with a few neighbours, not diluted by the
    whole, and the cost stays bounded.

    Args:
        text: A memory's text.

    Returns:
        At most :data:`MAX_CHUNKS` ``+ 1`` non-empty strings of at most :data:`CHUNK_CHARS`
        characters (none for a blank text).
    """
    sentences = [
        part[at : at + CHUNK_CHARS]
        for part in (piece.strip() for piece in _SENTENCE_END.split(text))
        if part
        for at in range(0, len(part), CHUNK_CHARS)
    ]
    if len(sentences) > MAX_CHUNKS:
        windows: list[str] = []
        for sentence in sentences:
            if windows and len(windows[-1]) + 1 + len(sentence) <= CHUNK_CHARS:
                windows[-1] += " " + sentence
            else:
                windows.append(sentence)
        sentences = windows
    whole = text.strip()
    if len(sentences) > 1 and len(whole) <= CHUNK_CHARS:
        sentences.append(whole)
    return sentences


WORD_PIECES: Final = 30522
"""Word-piece ids of the MiniLM tokenizer (``0`` to ``30521``)."""


def ngram_keys(token_ids: list[int]) -> npt.NDArray[np.int64]:
    """The n-grams of one chunk's word pieces, each as an integer key, with repeats.

    A single piece ``a`` is ``a``; an adjacent pair ``(a, b)`` is ``(a + 1) * 30522 + b``
    (:data:`WORD_PIECES`), so keys never collide (below 30523 * 30522, about 9.3e8). The
    ``[CLS]`` and ``[SEP]`` ids at the ends make the pairs that open and close the chunk.

    Args:
        token_ids: Word-piece ids (:meth:`memvault.minilm.MiniLMEmbedder.token_ids`).

    Returns:
        ``2 * len(token_ids) - 1`` keys (none for no ids), int64.
    """
    ids = np.asarray(token_ids, dtype=np.int64)
    if ids.size == 0:
        return ids
    pairs = sliding_window_view(ids, 2) if ids.size > 1 else np.zeros((0, 2), dtype=np.int64)
    return np.concatenate([ids, (pairs[:, 0] + 1) * WORD_PIECES + pairs[:, 1]])


@dataclass(frozen=True)
class Ngrams:
    """The word-piece n-gram features and their weights (one place for training and runtime).

    Args:
        keys: The n-grams known (:func:`ngram_keys`), sorted, unique, shape ``(k,)``, int64.
        idf: Their inverse document frequencies, shape ``(k,)``, float32, positive.
        coef: The regression's weights for them, shape ``(classes, k)``, float32 (empty, shape
            ``(0, k)``, while training).
    """

    keys: npt.NDArray[np.int64]
    idf: npt.NDArray[np.float32]
    coef: npt.NDArray[np.float32]

    def features(
        self, token_ids: list[list[int]]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """Each chunk's feature vector, sparse (CSR: ``indptr``, ``columns``, ``values``).

        A known n-gram seen ``n`` times in the chunk weighs ``(1 + ln n) * idf``; n-grams not in
        :attr:`keys` are ignored; each row is then L2-normalised (a chunk with no known n-gram is
        a row of zeros).

        Args:
            token_ids: Each chunk's word-piece ids.

        Returns:
            ``indptr`` shape ``(len(token_ids) + 1,)``; ``columns`` (indices into :attr:`keys`)
            and ``values`` of the same length.
        """
        indptr = [0]
        columns: list[npt.NDArray[np.int64]] = []
        values: list[npt.NDArray[np.float32]] = []
        for ids in token_ids:
            found = ngram_keys(ids)
            known = np.searchsorted(self.keys, found)
            inside = known < len(self.keys)
            known = known[inside][self.keys[known[inside]] == found[inside]]
            column, counts = np.unique(known, return_counts=True)
            weight = ((1.0 + np.log(counts)) * self.idf[column]).astype(np.float32)
            norm = float(np.linalg.norm(weight))
            columns.append(column.astype(np.int64))
            values.append(weight / norm if norm > 0 else weight)
            indptr.append(indptr[-1] + len(column))
        return (
            np.asarray(indptr, dtype=np.int64),
            np.concatenate(columns) if columns else np.zeros(0, dtype=np.int64),
            np.concatenate(values) if values else np.zeros(0, dtype=np.float32),
        )

    def logits(self, token_ids: list[list[int]]) -> npt.NDArray[np.float64]:
        """The n-grams' part of each chunk's logits, shape ``(len(token_ids), classes)``.

        Args:
            token_ids: Each chunk's word-piece ids.
        """
        indptr, columns, values = self.features(token_ids)
        rows = np.repeat(np.arange(len(token_ids)), np.diff(indptr))
        out = np.zeros((len(token_ids), self.coef.shape[0]))
        np.add.at(out, rows, (self.coef[:, columns] * values).T.astype(np.float64))
        return out


@dataclass(frozen=True)
class Classifier:
    """A multinomial logistic regression over sentence embeddings and, if given, n-grams.

    Args:
        coef: Weights of the embedding, shape ``(len(classes), 384)``, float32.
        intercept: Biases, shape ``(len(classes),)``, float32.
        classes: ``"benign"`` first, then families of :data:`FAMILIES`.
        threshold: A chunk is an attack when its probability of not being benign is at least
            this (in ``(0, 1)``).
        ngrams: The word-piece n-grams read beside the embedding (their ``coef`` shaped
            ``(len(classes), k)``), or ``None`` for the embedding alone.
    """

    coef: npt.NDArray[np.float32]
    intercept: npt.NDArray[np.float32]
    classes: tuple[str, ...]
    threshold: float
    ngrams: Ngrams | None = None

    def probabilities(
        self, vectors: npt.NDArray[np.float32], token_ids: list[list[int]] | None = None
    ) -> npt.NDArray[np.float64]:
        """Each class's probability (softmax), shape ``(len(vectors), len(classes))``.

        Args:
            vectors: Sentence embeddings, shape ``(n, 384)``.
            token_ids: The same chunks' word-piece ids (``n`` lists); needed when
                :attr:`ngrams` is set, ignored otherwise.

        Raises:
            InvalidArgumentError: If :attr:`ngrams` is set and ``token_ids`` is missing or of
                another length than ``vectors``.
        """
        logits = vectors.astype(np.float64) @ self.coef.T.astype(np.float64) + self.intercept
        if self.ngrams is not None:
            if token_ids is None or len(token_ids) != len(vectors):
                raise InvalidArgumentError(
                    f"token_ids: the classifier reads n-grams, so pass one list of word-piece "
                    f"ids per embedding ({len(vectors)}), got "
                    f"{'none' if token_ids is None else len(token_ids)}"
                )
            logits += self.ngrams.logits(token_ids)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def reasons(self, texts: list[str]) -> list[str | None]:
        """For each text, why the classifier holds it (``"<family>: '<chunk>' (p=0.97)"``).

        Args:
            texts: Memories' texts.

        Returns:
            One reason or ``None`` per text, in order.

        Raises:
            EmbedderUnavailableError: If the embedding model cannot be loaded.
            EmbedderError: If it fails on a batch.
        """
        pieces = [chunks(text) for text in texts]
        flat = [piece for text_pieces in pieces for piece in text_pieces]
        if not flat:
            return [None] * len(texts)
        embedder = MiniLMEmbedder()
        token_ids = embedder.token_ids(flat) if self.ngrams is not None else None
        probabilities = self.probabilities(embedder.embed_array(flat), token_ids)
        attack = 1.0 - probabilities[:, 0]
        found: list[str | None] = []
        start = 0
        for text_pieces in pieces:
            end = start + len(text_pieces)
            if end == start or attack[start:end].max() < self.threshold:
                found.append(None)
            else:
                best = start + int(attack[start:end].argmax())
                family = self.classes[1 + int(probabilities[best, 1:].argmax())]
                found.append(f"{family}: {flat[best][:80]!r} (p={attack[best]:.2f})")
            start = end
        return found


def load_classifier(path: Path = WEIGHTS_FILE) -> Classifier:
    """Read classifier weights written by ``bench/firewall_training.py --write``.

    Args:
        path: An ``.npz`` file with ``coef``, ``intercept``, ``classes``, ``threshold``,
            ``model`` and ``model_sha256``, and, if the regression reads n-grams,
            ``ngram_keys``, ``ngram_idf`` and ``ngram_coef`` (:class:`Ngrams`).

    Returns:
        The :class:`Classifier`.

    Raises:
        FirewallWeightsError: If the file cannot be read, lacks a field or has one of the wrong
            shape or type (a coef, intercept or threshold not numbers, a threshold not one
            number, a family named twice), or was trained on another model than
            :class:`~memvault.minilm.MiniLMEmbedder` (its name and
            :data:`~memvault.minilm.MODEL_SHA256`).
    """
    fix = "reinstall memvault, or run bench/firewall_training.py --write"
    try:
        with np.load(path, allow_pickle=False) as stored:
            fields = {name: stored[name] for name in stored.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise FirewallWeightsError(
            f"path: the firewall weights {str(path)!r} cannot be read "
            f"({type(error).__name__}: {error}); {fix}"
        ) from error
    wanted = ("coef", "intercept", "classes", "threshold", "model", "model_sha256")
    missing = [name for name in wanted if name not in fields]
    if missing:
        raise FirewallWeightsError(f"path: {str(path)!r} lacks {', '.join(missing)}; {fix}")
    model, sha = str(fields["model"]), str(fields["model_sha256"])
    if (model, sha) != (MiniLMEmbedder.name, MODEL_SHA256):
        raise FirewallWeightsError(
            f"model: {str(path)!r} was trained on {model!r} (sha256 {sha}), memvault runs "
            f"{MiniLMEmbedder.name!r} (sha256 {MODEL_SHA256}); {fix}"
        )
    for name in ("coef", "intercept", "threshold"):
        if fields[name].dtype.kind not in "fiu":
            raise FirewallWeightsError(
                f"{name}: {str(path)!r} holds {name} of dtype {fields[name].dtype}, not "
                f"numbers; {fix}"
            )
    if fields["threshold"].shape != ():
        raise FirewallWeightsError(
            f"threshold: {str(path)!r} holds a threshold of shape {fields['threshold'].shape}, "
            f"expected one number; {fix}"
        )
    coef = np.asarray(fields["coef"], dtype=np.float32)
    intercept = np.asarray(fields["intercept"], dtype=np.float32)
    classes = tuple(str(name) for name in fields["classes"].reshape(-1))
    threshold = float(fields["threshold"])
    if (
        coef.shape != (len(classes), MiniLMEmbedder.dim)
        or intercept.shape != (len(classes),)
        or len(classes) < 2
        or classes[0] != BENIGN
        or not set(classes[1:]) <= set(FAMILIES)
        or len(set(classes)) != len(classes)
        or not 0.0 < threshold < 1.0
        or not (np.isfinite(coef).all() and np.isfinite(intercept).all())
    ):
        raise FirewallWeightsError(
            f"coef: {str(path)!r} holds coef {coef.shape}, intercept {intercept.shape}, classes "
            f"{shown(classes)}, threshold {threshold}; expected ({len(classes)}, "
            f"{MiniLMEmbedder.dim}), ({len(classes)},), 'benign' then distinct families of "
            f"{FAMILIES}, a threshold in (0, 1); {fix}"
        )
    return Classifier(coef, intercept, classes, threshold, _stored_ngrams(path, fields, classes))


def _stored_ngrams(
    path: Path, fields: dict[str, npt.NDArray[np.generic]], classes: tuple[str, ...]
) -> Ngrams | None:
    names = ("ngram_keys", "ngram_idf", "ngram_coef")
    if not any(name in fields for name in names):
        return None
    fix = "reinstall memvault, or run bench/firewall_training.py --write"
    missing = [name for name in names if name not in fields]
    if missing:
        raise FirewallWeightsError(f"path: {str(path)!r} lacks {', '.join(missing)}; {fix}")
    keys = np.asarray(fields["ngram_keys"], dtype=np.int64)
    idf = np.asarray(fields["ngram_idf"], dtype=np.float32)
    coef = np.asarray(fields["ngram_coef"], dtype=np.float32)
    if (
        keys.ndim != 1
        or idf.shape != keys.shape
        or coef.shape != (len(classes), len(keys))
        or not (np.diff(keys) > 0).all()
        or not (np.isfinite(idf).all() and (idf > 0).all() and np.isfinite(coef).all())
    ):
        raise FirewallWeightsError(
            f"ngram_coef: {str(path)!r} holds ngram_keys {keys.shape}, ngram_idf {idf.shape}, "
            f"ngram_coef {coef.shape}; expected sorted unique keys, positive idf of the same "
            f"shape, ({len(classes)}, {len(keys)}) finite weights; {fix}"
        )
    return Ngrams(keys=keys, idf=idf, coef=coef)


_load_lock = threading.Lock()


@cache
def _shipped() -> Classifier:
    return load_classifier()


def classifier() -> Classifier:
    """The classifier memvault ships (:data:`WEIGHTS_FILE`), loaded once per process.

    Raises:
        FirewallWeightsError: As :func:`load_classifier`.
    """
    with _load_lock:
        return _shipped()


CACHED: Final = 4096
"""Texts whose reason :func:`classify_many` keeps (by digest), most recently used first."""
_cache: OrderedDict[bytes, str | None] = OrderedDict()
_cache_lock = threading.Lock()


def classify_many(texts: list[str]) -> list[str | None]:
    """For each text, why the shipped classifier holds it, or ``None``.

    The texts not seen lately are embedded in one batch; the reasons of the last
    :data:`CACHED` texts are kept (by BLAKE2 digest), so listing or recalling the same memories
    again does not embed them again.

    Args:
        texts: Memories' texts (str).

    Returns:
        One reason or ``None`` per text, in order.

    Raises:
        InvalidArgumentError: If a text is not a str.
        FirewallWeightsError: If the shipped weights cannot be used.
        EmbedderUnavailableError: If the embedding model cannot be loaded.
    """
    for text in texts:
        if not isinstance(text, str):
            raise InvalidArgumentError(f"text must be a str, got {shown(text)}")
    digests = [
        hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        for text in texts
    ]
    found: dict[bytes, str | None] = {}
    with _cache_lock:
        for digest in digests:
            if digest in _cache:
                _cache.move_to_end(digest)
                found[digest] = _cache[digest]
    unread = {digest: text for digest, text in zip(digests, texts) if digest not in found}
    if unread:
        found.update(zip(unread, classifier().reasons(list(unread.values()))))
        with _cache_lock:
            for digest in unread:
                _cache[digest] = found[digest]
            while len(_cache) > CACHED:
                _cache.popitem(last=False)
    return [found[digest] for digest in digests]
