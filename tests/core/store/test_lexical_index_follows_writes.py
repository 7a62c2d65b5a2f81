"""The lexical index follows every write: puts, overwrites, deletes, cleanup and import."""

import pytest

from memvault import ChromaBackend, HashingEmbedder, InMemoryBackend, MemoryStore

NS = ("users", "alice")


@pytest.fixture(params=["memory", "chroma"])
def store(request, tmp_path):
    backend = InMemoryBackend() if request.param == "memory" else ChromaBackend(tmp_path / "db")
    with MemoryStore(backend=backend, embedder=HashingEmbedder(64)) as store:
        yield store


def lexical_keys(store, query, prefix=NS):
    return [hit.key for hit in store.search(prefix, query=query, mode="lexical")]


def test_put_overwrite_and_delete_update_lexical_search(store):
    store.put(NS, "drink", {"text": "Alice drinks green tea every morning"})
    store.put(NS, "pet", {"text": "Alice has a dog named Rex"})
    assert lexical_keys(store, "which tea does she drink?") == ["drink"]

    store.put(NS, "drink", {"text": "Alice switched to espresso"})
    assert lexical_keys(store, "green tea") == []
    assert lexical_keys(store, "espresso") == ["drink"]

    store.delete(NS, "pet")
    assert lexical_keys(store, "dog Rex") == []


def test_cleanup_and_import_reach_the_lexical_index(store, tmp_path):
    store.put(NS, "old", {"text": "the kayak trip in Norway"})
    store.put(NS, "new", {"text": "the pottery class on Tuesday"})
    exported = tmp_path / "alice.jsonl"
    assert store.export_jsonl(exported) == 2

    assert store.cleanup(max_age=1e-9) == 2
    assert lexical_keys(store, "kayak pottery") == []

    assert store.import_jsonl(exported) == 2
    assert sorted(lexical_keys(store, "kayak pottery")) == ["new", "old"]


def test_lexical_matches_stemmed_words_and_ignores_query_syntax(store):
    store.put(NS, "run", {"text": "Melanie ran a charity race for the shelter"})
    assert lexical_keys(store, "charity races") == ["run"]
    assert lexical_keys(store, 'shelter" OR NOT (*') == ["run"]
    assert lexical_keys(store, "?!") == []
