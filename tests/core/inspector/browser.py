"""Debian's Chromium driven by Playwright, and the inspector served to it, for the
inspector's real-browser tests and for ``docs/screenshots.py``: one place for how the browser
is found and started and how the pages are served.

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
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tests.external import unavailable

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, ViewportSize

    from memvault import MemoryStore

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

VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
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
            viewport=VIEWPORT,
        )
        try:
            yield context
        finally:
            context.close()


@contextmanager
def inspector(store: MemoryStore, start_timeout: float = 10.0) -> Iterator[str]:
    """Serve ``memvault ui``'s pages over ``store`` on 127.0.0.1 (a free port), in a thread.

    The app is the one ``memvault ui`` serves (:func:`memvault.inspector.app.build_app`, with
    its token, Host and Origin checks), run by uvicorn in this process so that the test can
    hand it a store of its own (an in-memory one, a test embedder) and read the store after.

    Args:
        store: The store the pages show and change.
        start_timeout: Seconds to wait for the server to listen.

    Yields:
        The first visit's URL, with the token (what ``memvault ui`` prints).

    Raises:
        RuntimeError: If the server has not started within ``start_timeout`` seconds.
    """
    import uvicorn

    from memvault.inspector.app import build_app
    from memvault.inspector.security import Secrets

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    secrets = Secrets("127.0.0.1", listener.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(build_app(store, secrets), log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + start_timeout
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the inspector did not start within {start_timeout} s")
            time.sleep(0.02)
        yield secrets.url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()
