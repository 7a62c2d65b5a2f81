"""The inspector's real-browser fixture: a headless Chromium tab (see ``browser.py`` beside it).

``browser_page`` skips a test where ``/usr/bin/chromium`` or the ``playwright`` package is
missing, and fails it under ``CI=true``. The browser test is in the default selection (issue 27:
``uv run pytest`` runs it where Chromium is installed), so CI runs it on every Python whose
environment has the dev group; the floor runs, without the ``ui`` extra, skip it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.core.inspector.browser import check_chromium, chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture
def browser_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """A tab of a freshly started headless Chromium (1280×800), closed after the test."""
    executable = check_chromium()
    with chromium(tmp_path_factory.mktemp("chromium-profile"), executable) as context:
        page = context.new_page()
        page.set_default_timeout(10_000)  # ms: a missing element fails in 10 s, not 30
        yield page
