"""Where Debian's Chromium is missing, a browser test skips with a one-line reason that says
what to install, and under ``CI=true`` fails instead, so CI cannot pass without running it."""

import pytest

from tests.core.inspector.browser import check_chromium


def test_a_missing_chromium_skips_with_the_install_command(tmp_path):
    with pytest.raises(pytest.skip.Exception) as skipped:
        check_chromium({}, executable=tmp_path / "chromium")
    reason = str(skipped.value)
    assert "\n" not in reason and str(tmp_path / "chromium") in reason
    assert "apt-get install chromium" in reason


def test_a_missing_chromium_fails_under_ci(tmp_path):
    with pytest.raises(pytest.fail.Exception, match=r"required under CI=true"):
        check_chromium({"CI": "true"}, executable=tmp_path / "chromium")


def test_a_file_that_is_not_executable_is_no_browser(tmp_path):
    (tmp_path / "chromium").write_text("#!/bin/sh\n")
    with pytest.raises(pytest.skip.Exception, match="no Chromium at"):
        check_chromium({}, executable=tmp_path / "chromium")
