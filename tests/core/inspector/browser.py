"""Debian's Chromium driven by Playwright, for the inspector's real-browser tests and for
``docs/screenshots.py``: one place for how the browser is found and started.

Playwright (the dev group) talks to the browser through the driver its wheel carries; it never
downloads a browser here (``playwright install`` is never run): it starts ``/usr/bin/chromium``
(Debian's ``chromium`` package, which ``.ci/run`` installs) headless, in a fresh profile folder,
with everything that would reach the network at start switched off.

Where the browser or the ``playwright`` package is missing, :func:`chromium` skips the test with
the reason, except under ``CI=true``, where it fails (:func:`tests.external.unavailable`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tests.external import unavailable

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium (``apt-get install chromium``)."""

FLAGS = (
    "--headless",
    "--no-sandbox",  # as root (CI) Chromium refuses to start with its sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Chromium's command-line flags: headless, and nothing fetched from the network on its own."""

VIEWPORT = {"width": 1280, "height": 800}
"""The page size in CSS pixels (the screenshots' size too)."""


def check_chromium(environ: Mapping[str, str] = os.environ, executable: Path = CHROMIUM) -> Path:
    """The Chromium to drive; skips (fails under ``CI=true``) when it or Playwright is missing.

    Args:
        environ: The environment (``CI`` is read from it).
        executable: Where the browser should be.

    Returns:
        ``executable``, when it exists and the ``playwright`` package is importable.
    """
    if not (executable.is_file() and os.access(executable, os.X_OK)):
        unavailable(
            f"no Chromium at {executable}: apt-get install chromium (as .ci/run does)", environ
        )
    if importlib.util.find_spec("playwright") is None:
        unavailable("needs the playwright package (the dev group: uv sync)", environ)
    return executable


@contextmanager
def chromium(profile: Path, executable: Path = CHROMIUM) -> Iterator[BrowserContext]:
    """Start Chromium headless with a fresh profile; closed (and stopped) on leaving.

    Args:
        profile: An empty folder for the browser's profile (its user-data-dir).
        executable: The browser; :func:`check_chromium` finds it.

    Yields:
        A Playwright ``BrowserContext`` of :data:`VIEWPORT` size; ``new_page()`` opens a tab.

    Raises:
        playwright.sync_api.Error: If the browser cannot start.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            args=list(FLAGS),
            headless=True,
            viewport=VIEWPORT,  # type: ignore[arg-type]
        )
        try:
            yield context
        finally:
            context.close()
