"""Real processes on one store folder, for the tests that several processes share a store.

A child is ``sys.executable -c SCRIPT ARGS`` run from the repository root, so its script can
``from tests.core.processes import ...``. It reports to the parent with :func:`report`: one line
``@@ {json}`` on stdout, flushed, which :func:`reports` reads back (anything else a library
prints is ignored). Its stderr goes to a file, so a chatty child never blocks on a full pipe,
and :func:`finish` shows its tail when the child failed.

Texts come from :func:`phrase`: a label, a number and (six) made-up words, so that each text is
found first by its own words (lexical) and by its own embedding, also with
``HashingEmbedder(64)`` (dense).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
MARK = "@@ "
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def phrase(label: str, number: int, words: int = 6) -> str:
    """A text only this ``(label, number)`` has (with ``words`` made-up words), the same in every
    process."""
    rng = random.Random(f"{label}:{number}")
    made_up = ("".join(rng.choice(_SYLLABLES) for _ in range(3)) for _ in range(words))
    return f"{label} note {number}: {' '.join(made_up)}"


def report(**fields: Any) -> None:
    """In a child: send ``fields`` to the parent as one JSON line."""
    print(MARK + json.dumps(fields), flush=True)


def error_name(error: BaseException) -> str:
    """``module.Class: message`` of an exception, as children report the errors they saw."""
    kind = type(error)
    return f"{kind.__module__}.{kind.__qualname__}: {error}"[:500]


def wait_for_go(folder: str | Path, name: str, timeout: float = 120.0) -> None:
    """In a child: say ``name`` is ready, then spin until the parent says go (a start barrier)."""
    folder = Path(folder)
    (folder / f"ready-{name}").touch()
    deadline = time.monotonic() + timeout
    while not (folder / "go").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the parent never said go")
        time.sleep(0.001)


def release(folder: str | Path, children: list[subprocess.Popen], timeout: float = 120.0) -> None:
    """In the parent: wait until every child is ready (see :func:`wait_for_go`), then say go."""
    folder = Path(folder)
    deadline = time.monotonic() + timeout
    while len(list(folder.glob("ready-*"))) < len(children):
        for child in children:
            assert child.poll() is None, f"a child died before the start:\n{tail(child)}"
        assert time.monotonic() < deadline, "children never got ready"
        time.sleep(0.01)
    (folder / "go").touch()


def spawn(script: str, *args: Any, stderr: Path, **options: Any) -> subprocess.Popen:
    """Start ``python -c SCRIPT ARGS`` in the repository root, stderr to the file ``stderr``.

    ``options`` go to :class:`subprocess.Popen` (e.g. ``stdin=subprocess.PIPE``).
    """
    stderr.parent.mkdir(parents=True, exist_ok=True)
    with open(stderr, "w") as log:
        child = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(script), *map(str, args)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            **options,
        )
    child.stderr_path = stderr  # type: ignore[attr-defined]
    return child


def tail(child: subprocess.Popen, lines: int = 30) -> str:
    """The last lines of a child's stderr."""
    text = Path(child.stderr_path).read_text(errors="replace")  # type: ignore[attr-defined]
    return "\n".join(text.splitlines()[-lines:])


def next_report(child: subprocess.Popen) -> dict[str, Any]:
    """Read a child's stdout up to its next :func:`report`; fails if it exits first."""
    for line in child.stdout:  # type: ignore[union-attr]
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    child.wait()
    raise AssertionError(f"child exited with status {child.returncode}:\n{tail(child)}")


def finish(child: subprocess.Popen, timeout: float = 300.0) -> list[dict[str, Any]]:
    """Wait for a child (killed after ``timeout`` seconds); assert it exited with status 0.

    Returns:
        The reports it had not been asked for yet (see :func:`next_report`).
    """
    if child.stdin is not None:
        child.stdin.close()
    watchdog = threading.Timer(timeout, child.kill)
    watchdog.start()
    try:
        out = child.stdout.read()  # type: ignore[union-attr]
        child.wait()
    finally:
        watchdog.cancel()
    assert child.returncode == 0, f"child exited with status {child.returncode}:\n{tail(child)}"
    return [json.loads(line[len(MARK) :]) for line in out.splitlines() if line.startswith(MARK)]


def run(script: str, *args: Any, stderr: Path, timeout: float = 300.0) -> dict[str, Any]:
    """Run a child to its end and return its last report."""
    found = finish(spawn(script, *args, stderr=stderr), timeout)
    assert found, "the child reported nothing"
    return found[-1]
