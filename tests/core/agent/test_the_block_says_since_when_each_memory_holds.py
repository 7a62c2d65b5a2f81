"""Each line of the injected block says when its memory holds, in days (UTC): ``"since"``
(its ``valid_from``) while it holds, and ``"until"`` (its ``valid_to``) once it was superseded
or ended, so a model shown an old fact beside the current one can tell which is which."""

from datetime import datetime, timezone

from memvault import MemoryItem, format_memories

MARCH = datetime(2023, 3, 1, 23, 59, tzinfo=timezone.utc).timestamp()
JUNE = datetime(2023, 6, 2, 0, 1, tzinfo=timezone.utc).timestamp()
LATER = datetime(2026, 1, 5, tzinfo=timezone.utc).timestamp()


def item(key, text, valid_to=None):
    return MemoryItem(
        namespace=("users", "ada"),
        key=key,
        value={"text": text},
        created_at=LATER,
        updated_at=LATER,  # written later: the block dates when it holds, not when written
        valid_from=MARCH if valid_to else JUNE,
        valid_to=valid_to,
    )


def test_an_open_memory_says_since_and_a_closed_one_until():
    block = format_memories(
        [
            item("porto", "The user lives in Porto."),
            item("lisbon", "The user lives in Lisbon.", JUNE),
        ],
        header="H",
        show_ids=True,
    )
    assert block == (
        "H\n```memories\n"
        '{"id": "porto", "text": "The user lives in Porto.", "since": "2023-06-02"}\n'
        '{"id": "lisbon", "text": "The user lives in Lisbon.", "since": "2023-03-01", '
        '"until": "2023-06-02"}\n'
        "```"
    )
