"""The classifier weights memvault ships are what ``bench/firewall_training.py`` fits: its
setting (stored with the weights) cross-validated again gives the same threshold, and fitted on
all the data the same coefficients (the n-grams' too, when they read them). Embeds every
labelled text and LoCoMo turn (minutes)."""

import numpy as np
import pytest

from memvault.firewall_classifier import WEIGHTS_FILE
from memvault.minilm import MiniLMEmbedder
from tests.external import locomo_dir


@pytest.mark.slow
def test_the_shipped_weights_are_refitted_from_the_sets_and_locomo():
    from bench.firewall_training import (
        Chunks,
        lowest_threshold,
        memories,
        out_of_fold,
        setting_of,
        weights,
    )

    found, pieces = memories(locomo_dir())
    embedder = MiniLMEmbedder()
    chunks = Chunks(embedder.embed_array(pieces), embedder.token_ids(pieces))
    with np.load(WEIGHTS_FILE, allow_pickle=False) as stored:
        shipped = {name: stored[name] for name in stored.files}
    setting = setting_of(shipped)
    threshold = lowest_threshold(found, out_of_fold(chunks, found, setting))
    assert threshold == pytest.approx(float(shipped["threshold"]), abs=1e-3)
    fitted = weights(chunks, found, setting, float(shipped["threshold"]))
    assert [str(c) for c in fitted["classes"]] == [str(c) for c in shipped["classes"]]
    assert ("ngram_keys" in fitted) == ("ngram_keys" in shipped)
    if "ngram_keys" in shipped:
        np.testing.assert_array_equal(fitted["ngram_keys"], shipped["ngram_keys"])
    for name in ("coef", "intercept", "ngram_idf", "ngram_coef"):
        if name in shipped:
            np.testing.assert_allclose(fitted[name], shipped[name], atol=2e-3)
