"""Scripted extraction LLMs that take their time: the stand-ins of background-ingestion tests.

Each is a callable ``list[dict] -> str``, a kind :class:`memvault.FactExtractor` takes. It
reads the user's lines of the transcript the extractor sends and, after ``seconds``, answers one
fact per line: ``"The user said: <line>"``. It keeps the user lines it was sent, in call order.
"""

from __future__ import annotations

import json
import threading
import time


def user_lines(prompt: list[dict[str, str]]) -> list[str]:
    """The user's lines of the transcript :class:`memvault.FactExtractor` puts in its prompt."""
    transcript = json.loads(prompt[-1]["content"].split("\n", 1)[1])
    return [line[len("user: ") :] for line in transcript.split("\n") if line.startswith("user: ")]


def fact_of(line: str) -> str:
    """The fact :class:`SlowLLM` draws from a user line."""
    return f"The user said: {line}"


class SlowLLM:
    """Sleeps ``seconds``, then answers ``{"facts": [fact_of(line) for each user line]}``.

    Args:
        seconds: How long each call takes.
        fail: Raise ``ConnectionError`` (after the sleep) instead of answering.
        gate: Instead of sleeping, wait until this event is set (at most 30 s), so a test can
            check what happened before the model answered whatever the machine's load.
    """

    def __init__(
        self, seconds: float = 0.3, *, fail: bool = False, gate: threading.Event | None = None
    ) -> None:
        self.seconds = seconds
        self.fail = fail
        self.gate = gate
        self.seen: list[list[str]] = []
        self.started = threading.Event()

    def __call__(self, prompt: list[dict[str, str]]) -> str:
        self.started.set()
        lines = user_lines(prompt)
        self.seen.append(lines)
        if self.gate is not None:
            assert self.gate.wait(30), "the test never opened the gate"
        else:
            time.sleep(self.seconds)
        if self.fail:
            raise ConnectionError("the model server went away")
        return json.dumps({"facts": [fact_of(line) for line in lines]})
