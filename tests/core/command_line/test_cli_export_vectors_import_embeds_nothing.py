"""``memvault export FILE --vectors`` then ``memvault import FILE`` into a new store of the
same embedder embeds no memory (only the probe text a new store records its embedder by), and
the copy finds what the original finds."""

from memvault.store import FINGERPRINT_PROBE
from tests.core.cli import EXAMPLE, cli, cli_json
from tests.core.embedders import counting_every_store


def test_an_export_with_vectors_imports_without_embedding(tmp_path, monkeypatch):
    embedder = counting_every_store(monkeypatch)
    original, copy, exported = tmp_path / "original", tmp_path / "copy", tmp_path / "out.jsonl"
    cli("ingest", str(EXAMPLE), "-n", "users/alice", store=original)
    assert cli_json("export", str(exported), "--vectors", store=original)["exported"] > 2
    embedder.calls.clear()

    assert cli_json("import", str(exported), store=copy)["imported"] > 2

    assert embedder.texts == [FINGERPRINT_PROBE]
    query = ["search", "vegetarian food in Kyoto", "-n", "users", "-k", "3"]
    assert found(cli_json(*query, store=copy)) == found(cli_json(*query, store=original))


def found(items):
    """Each item found, its score to 6 places (float32 vectors read back, normalised again)."""
    return [{**item, "score": round(item["score"], 6)} for item in items]
