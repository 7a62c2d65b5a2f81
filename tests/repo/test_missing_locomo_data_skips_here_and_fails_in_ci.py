"""Without the LoCoMo data a test that needs it skips with a one-line reason on a newcomer's
machine and fails under ``CI=true``; ``$MEMVAULT_LOCOMO_DIR`` names another folder."""

import pytest

from tests.external import locomo_dir


def test_absent_data_skips_with_a_one_line_reason(tmp_path):
    with pytest.raises(pytest.skip.Exception) as skipped:
        locomo_dir({}, beside=tmp_path / "absent")
    reason = str(skipped.value)
    assert "\n" not in reason and "MEMVAULT_LOCOMO_DIR" in reason and "absent" in reason


def test_absent_data_fails_under_ci(tmp_path):
    with pytest.raises(pytest.fail.Exception, match=r"required under CI=true"):
        locomo_dir({"CI": "true"}, beside=tmp_path / "absent")


def test_the_variable_names_the_folder_and_a_wrong_one_fails(tmp_path):
    named = {"MEMVAULT_LOCOMO_DIR": str(tmp_path)}
    assert locomo_dir(named, beside=tmp_path / "absent") == tmp_path
    with pytest.raises(pytest.fail.Exception, match="is not a folder"):
        locomo_dir({"MEMVAULT_LOCOMO_DIR": str(tmp_path / "typo")}, beside=tmp_path)
