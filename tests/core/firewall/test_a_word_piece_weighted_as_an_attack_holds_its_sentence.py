"""A classifier that reads n-grams holds a chunk for a word piece its n-gram weights give to a
family, and not the same text without it: the n-grams reach the reasons."""

from dataclasses import replace

import numpy as np

from memvault.firewall_classifier import Ngrams, load_classifier
from memvault.minilm import MiniLMEmbedder


def test_a_word_piece_weighted_as_an_attack_holds_its_sentence():
    shipped = load_classifier()
    ((_, piece, _),) = MiniLMEmbedder().token_ids(["zebra"])
    coef = np.zeros((len(shipped.classes), 1), np.float32)
    coef[1] = 50.0
    reading = replace(shipped, ngrams=Ngrams(np.array([piece]), np.ones(1, np.float32), coef))
    calm = "We went to the zoo on Sunday and had ice cream after lunch."
    assert shipped.reasons([calm]) == [None]
    held, passed = reading.reasons([calm + " The zebra was asleep.", calm])
    assert passed is None
    assert held is not None and held.startswith(f"{shipped.classes[1]}: ") and "zebra" in held
