"""The Lisbon -> Porto case of issue 26, for the LlamaIndex tests: Lisbon from March 2023, Porto
from June, April in between."""

from datetime import datetime, timezone

from memvault import MemoryStore

MARCH = datetime(2023, 3, 1, tzinfo=timezone.utc)
APRIL = datetime(2023, 4, 15, tzinfo=timezone.utc)
JUNE = datetime(2023, 6, 2, tzinfo=timezone.utc)


def moved_from_lisbon_to_porto(store: MemoryStore, namespace: tuple[str, ...]) -> None:
    """Store "I live in Lisbon." (key ``lisbon``, from :data:`MARCH`), then "I moved to Porto."
    (key ``porto``, from :data:`JUNE`), which supersedes it: Lisbon holds until June."""
    store.put(namespace, "lisbon", {"text": "I live in Lisbon."}, valid_from=MARCH)
    store.put(namespace, "porto", {"text": "I moved to Porto."}, valid_from=JUNE)
    store.supersede(namespace, "lisbon", by="porto")
