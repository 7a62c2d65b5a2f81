"""The commands that manage a store: filter, list, get, namespaces, forget, stats, export,
import and cleanup, on the example conversation."""

from memvault.conversations import source_id
from tests.core.cli import EXAMPLE, cli, cli_json


def test_manage_commands(tmp_path):
    store = tmp_path / "store"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=store)
    source = source_id(EXAMPLE)

    def key(turn: int) -> str:
        return f"{source}:{turn}"

    by_speaker = cli_json(
        "search", "trip", "--filter", '{"speaker": "assistant"}', "-k", "10", store=store
    )
    assert len(by_speaker) == 4 and {h["value"]["speaker"] for h in by_speaker} == {"assistant"}
    newest = cli_json("list", "-n", "users/alice", "--limit", "2", store=store)
    assert [h["key"] for h in newest] == [key(10), key(9)]
    first = cli_json("get", key(1), "-n", "users/alice", store=store)[0]
    assert first["value"]["text"].startswith("Hi! I'm Alice.")
    assert cli_json("namespaces", store=store) == {"namespaces": ["users/alice"]}
    assert cli("forget", key(1), "-n", "users/alice", store=store).stdout.startswith("forgot")
    assert cli("get", key(1), "-n", "users/alice", store=store, check=False).exit_code == 1
    stats = cli_json("stats", store=store)
    assert stats["memories"] == 9 and stats["embedder"] == "all-MiniLM-L6-v2-int8"
    exported = tmp_path / "out.jsonl"
    assert cli_json("export", str(exported), store=store)["exported"] == 9
    other = tmp_path / "other"
    assert cli_json("import", str(exported), store=other)["imported"] == 9
    assert cli_json("cleanup", store=other) == {"deleted": 0}
