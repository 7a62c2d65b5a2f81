"""One LoCoMo conversation in a store, each speaker's turns in their own namespace
(``users/<speaker>``), for the browser test and ``docs/screenshots.py``.

The turns are read as ``memvault ingest`` reads them
(:func:`memvault.conversations.load_conversation`: text, speaker, turn id, session date, the
neighbouring turns as context) and written as it writes them: one ``put_many`` per run of
turns said at the same time, at that time, with source ``"turn"``.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from memvault import MemoryStore
from memvault.model import Namespace


def speaker_namespace(speaker: str) -> Namespace:
    """The namespace of one speaker's turns: ``("users", "<speaker, lower case>")``."""
    return ("users", speaker.lower())


def ingest_by_speaker(store: MemoryStore, conversation: Path) -> dict[Namespace, int]:
    """Store every turn of a conversation file under its speaker's namespace.

    Args:
        store: Where to write.
        conversation: A LoCoMo JSON file (or any file ``memvault ingest`` reads).

    Returns:
        How many turns each namespace got.

    Raises:
        memvault.errors.MemvaultError: If the file cannot be read as a conversation or a
            write fails (see ``MemoryStore.put_many``).
    """
    from memvault.conversations import load_conversation

    counts: dict[Namespace, int] = {}
    turns = load_conversation(conversation)
    for (speaker, timestamp), same in groupby(turns, key=lambda t: (t.speaker, t.timestamp)):
        run = list(same)
        namespace = speaker_namespace(speaker)
        store.put_many(
            namespace, [(t.key, t.value()) for t in run], timestamp=timestamp, source="turn"
        )
        counts[namespace] = counts.get(namespace, 0) + len(run)
    return counts
