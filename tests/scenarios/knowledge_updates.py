"""Knowledge-update scripts (issue 26), framework-neutral: scripts, memory model, checks.

``knowledge_updates.yaml`` holds the scripts (see its header). Each is played through LangChain's
``create_agent`` and a LlamaIndex ``FunctionAgent`` (``test_knowledge_updates_through_*.py``):
every statement on its own date (the store's clock is set to it, so a memory holds from when it
was said), with a scripted memory model (:class:`MemoryModel`: the extractor's facts and the
reconciler's decisions of the turn being played) and a scripted agent model that calls the
``recall`` tool with ``as_of`` or ``forget`` with ``erase`` where the script says. :class:`Counts`
checks what the model was shown and what is on disk, and counts suite-wide the three failures the
issue names: stale facts injected as current, as-of answers wrong, erased text found on disk (each
goal 0; printed at the end of the run by ``conftest.py``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from memvault import AgentMemory, FactExtractor, InMemoryBackend, MemoryStore, Reconciler
from memvault.testing import FakeClock

SCRIPTS: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "knowledge_updates.yaml").read_text(encoding="utf-8")
)
COUNTS: dict[str, Counter] = {}
"""Suite-wide counts by framework, printed by ``conftest.py``."""

USER = "alice"
_FENCE = re.compile(r"^(`{3,})memories$")


def script_ids() -> list[str]:
    """One pytest id per script."""
    return [script["name"] for script in SCRIPTS]


def seconds(date: str) -> float:
    """A script's date (``YYYY-MM-DD``, UTC) as Unix seconds, at noon."""
    day = datetime.strptime(date, "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc)
    return day.timestamp()


class MemoryModel:
    """The memory model of a script: replies to the extractor and the reconciler of one turn.

    A callable ``list[dict] -> str`` (memvault's plainest model convention,
    :mod:`memvault.llm`): a reconciliation prompt gets the turn's ``decisions``, any other
    prompt (extraction) the turn's ``facts`` (none for a turn that states nothing).
    """

    def __init__(self) -> None:
        self.turn: dict[str, Any] = {}
        self.calls: list[str] = []

    def __call__(self, messages: list[dict[str, str]]) -> str:
        prompt = "\n".join(message["content"] for message in messages)
        if '"decisions"' in prompt:
            self.calls.append("reconcile")
            return json.dumps({"decisions": self.turn.get("decisions", [])})
        self.calls.append("extract")
        return json.dumps({"facts": self.turn.get("facts", [])})


@dataclass
class Played:
    """What one script's run needs: its clock, memory model and agent memory."""

    clock: FakeClock
    model: MemoryModel
    memory: AgentMemory
    folder: Path | None


def start(script: dict[str, Any], folder: Path) -> Played:
    """A store for ``script``: in memory, or on disk in ``folder`` for an erase script.

    The default embedder (MiniLM); the clock starts at the script's first date.
    """
    clock = FakeClock(seconds(script["said"][0]["at"]))
    erasing = "erase" in script
    store = (
        MemoryStore(folder, clock=clock.time)
        if erasing
        else MemoryStore(backend=InMemoryBackend(), clock=clock.time)
    )
    model = MemoryModel()
    memory = AgentMemory(store, extractor=FactExtractor(model), reconciler=Reconciler(model))
    return Played(clock, model, memory, folder if erasing else None)


def at(played: Played, turn: dict[str, Any]) -> None:
    """Move the clock to the turn's date and give the memory model the turn's replies."""
    played.clock.advance(seconds(turn["at"]) - played.clock.time())
    played.model.turn = turn


def block_lines(prompt: str) -> list[dict[str, Any]]:
    """The memory lines (JSON objects) of the first fenced memory block in a prompt."""
    lines = prompt.splitlines()
    for begin, line in enumerate(lines):
        opening = _FENCE.match(line.strip())
        if opening:
            found = []
            for inner in lines[begin + 1 :]:
                if inner.strip() == opening.group(1):
                    return found
                found.append(json.loads(inner))
    return []


def shown_as_ended(line: dict[str, Any]) -> bool:
    """Whether a memory line says the memory no longer holds (it names when it ended)."""
    return line.get("until") is not None


@dataclass
class Counts:
    """Checks one script's run and counts failures for the suite summary."""

    framework: str
    script: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.counts = COUNTS.setdefault(self.framework, Counter())

    def asked(self, prompt: str) -> None:
        """Check the block injected for the script's question: no stale fact shown as current."""
        lines = block_lines(prompt)
        stale = set(self.script.get("stale", []))
        current = [line["text"] for line in lines if not shown_as_ended(line)]
        wrong = [text for text in current if text in stale]
        self.counts["scripts"] += 1
        self.counts["stale facts injected as current"] += len(wrong)
        assert not wrong, f"stale facts shown as current: {wrong} in {lines}"

    def recalled_as_of(self, tool_output: str) -> None:
        """Check what the recall tool returned ``as_of`` the script's past date."""
        holds = self.script["as_of"]["holds"]
        later = [text for text in self.script["current"] if text in tool_output]
        wrong = holds not in tool_output or bool(later)
        self.counts["as-of answers wrong"] += wrong
        assert not wrong, f"as_of recall should hold {holds!r} and none of {later}: {tool_output}"

    def erased(self, folder: Path) -> None:
        """Check that no file of the store holds the erased memory or its words."""
        erase = self.script["erase"]
        needles = [erase["memory"], *erase["words"]]
        found = [
            (path.name, needle)
            for path in folder.rglob("*")
            if path.is_file()
            for needle in needles
            if needle.encode() in path.read_bytes()
        ]
        self.counts["erased text found on disk"] += len(found)
        assert not found, f"erased text on disk: {found}"

    def current(self, memory: AgentMemory) -> None:
        """Check the memories that hold at the end."""
        texts = sorted(item.text for item in memory.scope(user_id=USER).list(1000))
        self.counts["current memories wrong"] += texts != sorted(self.script["current"])
        assert texts == sorted(self.script["current"]), texts
