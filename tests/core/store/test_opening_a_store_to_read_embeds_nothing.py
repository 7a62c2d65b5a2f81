"""Opening a store that exists embeds nothing (the default model is not even loaded): reads,
a lexical search and an export make no embedding call, and the embedder's fingerprint is
checked once, at the first embedding, just before a query's or a write's own."""

from memvault import HashingEmbedder, MemoryStore
from memvault.store import FINGERPRINT_PROBE
from tests.core.embedders import CountingEmbedder

NS = ("users", "alice")


def test_reads_embed_nothing_and_the_first_query_checks_the_fingerprint(tmp_path):
    with MemoryStore(tmp_path, embedder=HashingEmbedder(64)) as store:
        store.put(NS, "tea", {"text": "alice drinks green tea"})

    embedder = CountingEmbedder()
    with MemoryStore(tmp_path, embedder=embedder) as store:
        assert store.get(NS, "tea").text == "alice drinks green tea"
        assert [item.key for item in store.search(NS)] == ["tea"]
        assert [item.key for item in store.search(NS, query="tea", mode="lexical")] == ["tea"]
        assert store.export_jsonl(tmp_path / "export.jsonl") == 1
        assert embedder.calls == []

        assert [item.key for item in store.search(NS, query="green tea")] == ["tea"]
        store.put(NS, "cake", {"text": "alice bakes a cake"})
    assert embedder.calls == [[FINGERPRINT_PROBE], ["green tea"], ["alice bakes a cake"]]
