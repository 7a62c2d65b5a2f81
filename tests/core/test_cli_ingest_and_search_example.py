"""The README's first commands: ingest the example conversation, then find the right turn."""

from tests.core.cli import REPO, memvault, memvault_json

EXAMPLE = str(REPO / "examples" / "trip-planning.json")


def test_ingest_then_search_puts_the_right_turn_first(tmp_path):
    store = tmp_path / "store"
    ingested = memvault_json("ingest", EXAMPLE, "-n", "users/alice", store=store)
    assert ingested == {"ingested": 10, "namespace": "users/alice"}

    hits = memvault_json(
        "search", "any allergies I should know about?", "-n", "users/alice", "-k", "3", store=store
    )
    assert hits[0]["key"] == "trip-planning:5"
    assert (
        hits[0]["value"]["text"]
        == "Maya is allergic to peanuts, so we have to be careful with sauces."
    )
    assert hits[0]["value"]["speaker"] == "user" and hits[0]["namespace"] == "users/alice"

    text = memvault("search", "how much can we spend per day", "-n", "users", store=store).stdout
    assert text.splitlines()[0].endswith(
        "Our budget is about 150 euros a day each, hotels included."
    )


def test_manage_commands(tmp_path):
    store = tmp_path / "store"
    memvault("ingest", EXAMPLE, "-n", "users/alice", store=store)
    by_speaker = memvault_json(
        "search", "trip", "--filter", '{"speaker": "assistant"}', "-k", "10", store=store
    )
    assert len(by_speaker) == 4 and {h["value"]["speaker"] for h in by_speaker} == {"assistant"}
    newest = memvault_json("list", "-n", "users/alice", "--limit", "2", store=store)
    assert [h["key"] for h in newest] == ["trip-planning:10", "trip-planning:9"]
    assert memvault_json("get", "trip-planning:1", "-n", "users/alice", store=store)[0]["value"][
        "text"
    ].startswith("Hi! I'm Alice.")
    assert memvault_json("namespaces", store=store) == {"namespaces": ["users/alice"]}
    memvault("forget", "trip-planning:1", "-n", "users/alice", store=store)
    assert (
        memvault("get", "trip-planning:1", "-n", "users/alice", store=store, check=False).returncode
        == 1
    )
    stats = memvault_json("stats", store=store)
    assert stats["memories"] == 9 and stats["embedder"] == "all-MiniLM-L6-v2-int8"
    exported = tmp_path / "out.jsonl"
    assert memvault_json("export", str(exported), store=store)["exported"] == 9
    other = tmp_path / "other"
    assert memvault_json("import", str(exported), store=other)["imported"] == 9
    assert memvault_json("cleanup", store=other) == {"deleted": 0}
