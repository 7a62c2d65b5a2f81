"""A scripted model for the reconciliation tests: replies in order, records every prompt."""

from __future__ import annotations

import json
from typing import Any

from memvault.extraction import DEFAULT_EXTRACTION_PROMPT
from memvault.reconcile import DEFAULT_RECONCILIATION_PROMPT, DEFAULT_TURN_PROMPT


class ScriptedModel:
    """A callable model: each call pops the next reply and records the messages it was sent.

    ``calls`` lists ``"extraction"``, ``"reconciliation"`` or ``"turn"`` (both in one call)
    per call, by the system prompt.
    """

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []

    def __call__(self, messages: list[dict[str, str]]) -> str:
        self.prompts.append(messages)
        return self.replies.pop(0)

    @property
    def calls(self) -> list[str]:
        kinds = {
            DEFAULT_EXTRACTION_PROMPT: "extraction",
            DEFAULT_RECONCILIATION_PROMPT: "reconciliation",
            DEFAULT_TURN_PROMPT: "turn",
        }
        return [kinds.get(prompt[0]["content"], "other") for prompt in self.prompts]

    def shown(self, call: int = -1) -> dict[str, Any]:
        """The data a reconciliation call showed: ``existing_memories`` and ``new_facts``."""
        return json.loads(self.prompts[call][1]["content"])


def facts(*texts: str) -> str:
    """An extraction reply."""
    return json.dumps({"facts": list(texts)})


def decisions(*entries: dict[str, Any]) -> str:
    """A reconciliation reply."""
    return json.dumps({"decisions": list(entries)})
