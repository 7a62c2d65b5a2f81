"""The scenario scripts and what they must show, framework-neutral.

``scenarios.yaml`` holds hand-written multi-session scripts (see its header); the runners in
this folder play them through LangChain's ``create_agent`` and LlamaIndex's chat engines and
``FunctionAgent`` with scripted models, and hand every prompt the model received to
:class:`Tally`, which checks the stated expectations and counts the suite-wide failures the
issue names: duplicate lines injected, forgotten facts resurfacing, questions outranking the
fact that answers them (each goal 0; printed at the end of the run by ``conftest.py``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from memvault import AgentMemory, InMemoryBackend, MemoryStore, memory_key
from memvault.statements import description_of, memorable_text, states
from memvault.testing import FakeClock

SCENARIOS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "scenarios.yaml").read_text(encoding="utf-8")
)
TALLIES: dict[str, Counter] = {}
"""Suite-wide counts by framework, printed by ``conftest.py``."""

_FENCE = re.compile(r"^(`{3,})memories$")


def scenario_ids() -> list[str]:
    """One pytest id per scenario."""
    return [scenario["name"] for scenario in SCENARIOS]


def fresh_memory() -> AgentMemory:
    """What each scenario starts from: an empty in-process store, MiniLM, default policy.

    The store's clock is stopped at one instant, so that what a turn's context says of its
    date (and so its embedding) is the same whenever the scenarios run.
    """
    return AgentMemory(MemoryStore(backend=InMemoryBackend(), clock=FakeClock().time))


def injected_texts(prompt: str) -> list[str]:
    """The memory texts of the first fenced memory block in a prompt, in order."""
    lines = prompt.splitlines()
    for start, line in enumerate(lines):
        opening = _FENCE.match(line.strip())
        if opening:
            fence = opening.group(1)
            body = []
            for inner in lines[start + 1 :]:
                if inner.strip() == fence:
                    return body
                body.append(json.loads(inner)["text"])
    return []


@dataclass
class Tally:
    """Checks one scenario's prompts and stores and counts failures for the suite summary.

    ``user`` is whose session is being played: a forget is tracked for that user only (one
    user's forget leaves another's memories alone).
    """

    framework: str
    user: str = "alice"
    forgotten: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.counts = TALLIES.setdefault(self.framework, Counter())

    def prompt(self, turn: dict[str, Any], prompt: str, *, first_call: bool) -> None:
        """Check a prompt the model received for ``turn`` (``first_call``: before any tool)."""
        texts = injected_texts(prompt)
        self.counts["blocks"] += 1
        duplicates = len(texts) - len({memory_key(t) for t in texts})
        self.counts["duplicate lines injected"] += duplicates
        gone = self.forgotten.get(self.user, [])
        resurfacing = sum(1 for t in texts for d in gone if states(description_of(d), t))
        self.counts["forgotten facts resurfacing"] += resurfacing
        outranked = 0
        answer = turn.get("answered_by")
        if first_call and answer:
            above = texts[: texts.index(answer)] if answer in texts else texts
            outranked = sum(1 for t in above if memorable_text(t) is None)
            outranked += answer not in texts
        self.counts["questions outranking the answering fact"] += outranked
        assert duplicates == 0, f"duplicate lines injected: {texts}"
        assert resurfacing == 0, f"forgotten {gone} resurfaced in {texts}"
        assert outranked == 0, f"{answer!r} not first among statements in {texts}"
        if first_call and "injected" in turn:
            assert sorted(texts) == sorted(turn["injected"]), (turn["user"], texts)

    def tool_called(self, turn: dict[str, Any]) -> None:
        """Record a tool call of ``turn`` (a forget's description is tracked from now on)."""
        tool = turn.get("tool")
        if tool and tool["name"] == "forget":
            self.forgotten.setdefault(self.user, []).append(tool["args"]["memory"])

    def stored(self, session: dict[str, Any], texts: list[str]) -> None:
        """Check the user's memories after a session."""
        self.counts["sessions"] += 1
        assert sorted(texts) == sorted(session["memories"]), f"stored {sorted(texts)}"
