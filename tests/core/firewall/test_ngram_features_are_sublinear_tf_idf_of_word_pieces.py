"""The classifier's lexical features: word pieces single and in adjacent pairs, each kept n-gram
weighing ``(1 + ln count) * idf``, unknown ones ignored, each chunk's row of unit length; their
weights add to the logits of the chunk."""

import math

import numpy as np
import pytest

from memvault.firewall_classifier import WORD_PIECES, Ngrams, ngram_keys


def test_keys_are_the_pieces_then_their_adjacent_pairs():
    keys = ngram_keys([101, 7, 7, 102])
    pair = lambda a, b: (a + 1) * WORD_PIECES + b  # noqa: E731
    assert keys.tolist() == [101, 7, 7, 102, pair(101, 7), pair(7, 7), pair(7, 102)]
    assert ngram_keys([]).tolist() == [] and ngram_keys([5]).tolist() == [5]


def test_rows_are_sublinear_tf_idf_normalised_and_ignore_unknown_ngrams():
    known = np.array([7, 102, (7 + 1) * WORD_PIECES + 7])
    ngrams = Ngrams(known, np.array([1.0, 2.0, 3.0], np.float32), np.zeros((0, 3), np.float32))
    indptr, columns, values = ngrams.features([[101, 7, 7, 102], [101, 9, 102], [4]])
    assert indptr.tolist() == [0, 3, 4, 4]
    raw = np.array([1 + math.log(2), 2.0, 3.0])
    assert columns[:3].tolist() == [0, 1, 2]
    np.testing.assert_allclose(values[:3], raw / np.linalg.norm(raw), rtol=1e-6)
    assert columns[3] == 1 and values[3] == pytest.approx(1.0)


def test_the_ngram_weights_add_to_each_chunks_logits():
    coef = np.array([[1.0, 0.0], [0.0, 2.0]], np.float32)
    ngrams = Ngrams(np.array([7, 9]), np.ones(2, np.float32), coef)
    logits = ngrams.logits([[7], [9], [7, 9], []])
    half = 1 / math.sqrt(2)
    np.testing.assert_allclose(logits, [[1, 0], [0, 2], [half, 2 * half], [0, 0]], rtol=1e-6)
