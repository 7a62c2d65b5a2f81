"""Classifier weights whose threshold is not one number, whose coef is not numbers, or whose
classes repeat a family are refused with FirewallWeightsError naming the field, not a bare
TypeError or ValueError, nor loaded."""

import numpy as np
import pytest

from memvault.errors import FirewallWeightsError
from memvault.firewall_classifier import WEIGHTS_FILE, load_classifier


def _shipped() -> dict:
    with np.load(WEIGHTS_FILE, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def _load_with(tmp_path, **changed):
    path = tmp_path / "weights.npz"
    np.savez(path, **{**_shipped(), **changed})
    return load_classifier(path)


def test_two_thresholds_are_refused(tmp_path):
    with pytest.raises(FirewallWeightsError, match="threshold: .* expected one number"):
        _load_with(tmp_path, threshold=np.array([0.5, 0.6]))


def test_a_threshold_that_is_text_is_refused(tmp_path):
    with pytest.raises(FirewallWeightsError, match="threshold: .* not numbers"):
        _load_with(tmp_path, threshold=np.array("x"))


def test_coef_of_strings_is_refused(tmp_path):
    coef = _shipped()["coef"]
    with pytest.raises(FirewallWeightsError, match="coef: .* not numbers"):
        _load_with(tmp_path, coef=np.full(coef.shape, "0.1"))


def test_a_family_named_twice_is_refused(tmp_path):
    classes = [str(name) for name in _shipped()["classes"]]
    classes[-1] = classes[1]
    with pytest.raises(FirewallWeightsError, match="distinct families"):
        _load_with(tmp_path, classes=np.array(classes))
