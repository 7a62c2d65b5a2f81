"""Classifier weights that do not fit are refused with a typed error naming the fix: another
model's, a field missing, a wrong shape (n-grams' too), a file that is not weights."""

import numpy as np
import pytest

from memvault.errors import FirewallWeightsError
from memvault.firewall_classifier import WEIGHTS_FILE, load_classifier


def _shipped() -> dict:
    with np.load(WEIGHTS_FILE, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def test_the_shipped_weights_load():
    classifier = load_classifier()
    assert classifier.classes[0] == "benign" and 0 < classifier.threshold < 1


def test_weights_trained_on_another_model_are_refused(tmp_path):
    path = tmp_path / "weights.npz"
    np.savez(path, **{**_shipped(), "model_sha256": np.array("0" * 64)})
    with pytest.raises(FirewallWeightsError, match="was trained on .* memvault runs"):
        load_classifier(path)


def test_weights_without_a_field_are_refused(tmp_path):
    path = tmp_path / "weights.npz"
    np.savez(path, **{k: v for k, v in _shipped().items() if k != "threshold"})
    with pytest.raises(FirewallWeightsError, match="lacks threshold"):
        load_classifier(path)


def test_weights_of_the_wrong_shape_are_refused(tmp_path):
    path = tmp_path / "weights.npz"
    fields = _shipped()
    np.savez(path, **{**fields, "coef": fields["coef"][:, :100]})
    with pytest.raises(FirewallWeightsError, match="expected"):
        load_classifier(path)


def test_a_file_that_is_not_weights_is_refused(tmp_path):
    path = tmp_path / "weights.npz"
    path.write_text("not numpy", encoding="utf-8")
    with pytest.raises(FirewallWeightsError, match="cannot be read"):
        load_classifier(path)


def test_ngram_weights_of_the_wrong_shape_or_incomplete_are_refused(tmp_path):
    path = tmp_path / "weights.npz"
    fields = _shipped()
    classes = len(fields["classes"])
    lexical = {
        "ngram_keys": np.array([3, 5, 9], np.int32),
        "ngram_idf": np.ones(3, np.float32),
        "ngram_coef": np.zeros((classes, 2), np.float32),
    }
    np.savez(path, **{**fields, **lexical})
    with pytest.raises(FirewallWeightsError, match="ngram_coef: .* expected"):
        load_classifier(path)
    del lexical["ngram_idf"]
    np.savez(path, **{k: v for k, v in fields.items() if not k.startswith("ngram")}, **lexical)
    with pytest.raises(FirewallWeightsError, match="lacks ngram_idf"):
        load_classifier(path)
