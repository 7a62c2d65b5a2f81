"""``export_jsonl(..., with_vectors=True)`` carries each memory's embedding with the exporting
store's embedder (name, dim, fingerprint): an import into a store of the same embedder embeds
nothing and finds what the source finds; into a store of another embedder the texts are
embedded again, as a file without vectors is. A bad vector is a typed error naming its line,
and a backend that cannot read embeddings back refuses to export them."""

import json

import pytest

from memvault import FunctionEmbedder, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import ImportFormatError, InvalidArgumentError
from tests.core.embedders import CountingEmbedder

ALICE, BOB = ("users", "alice"), ("users", "bob")
QUERIES = ["what does alice drink?", "bob's job", "where does alice live"]


def source_store():
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    store.put_many(
        ALICE,
        [
            ("tea", {"text": "Alice drinks green tea", "context": "said at breakfast"}),
            ("city", {"text": "Alice lives in Lisbon"}),
        ],
    )
    store.put(BOB, "job", {"text": "Bob works as a nurse", "shift": "night"}, ttl=3600)
    store.put(ALICE, "city", {"text": "Alice lives in Porto"})  # history: add, update
    return store


def found(store):
    return [
        [(item.key, round(item.score, 5)) for item in store.search((), query=query)]
        for query in QUERIES
    ]


def test_vectors_round_trip_without_embedding_and_search_alike(tmp_path):
    source, path = source_store(), tmp_path / "export.jsonl"
    assert source.export_jsonl(path, with_vectors=True) == 3
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {"kind": "embedder", **source.stats().info}
    assert [len(line["vector"]) for line in lines[1:4]] == [64, 64, 64]

    embedder = CountingEmbedder()
    target = MemoryStore(backend=InMemoryBackend(), embedder=embedder)
    embedder.calls.clear()  # a new store records its embedder's fingerprint at open
    assert target.import_jsonl(path) == 3
    assert embedder.calls == []
    assert found(target) == found(source)
    for namespace, key in [(ALICE, "tea"), (ALICE, "city"), (BOB, "job")]:
        assert target.get(namespace, key) == source.get(namespace, key)
        assert target.history(namespace, key) == source.history(namespace, key)


def other_dimension():
    return CountingEmbedder(32)


def same_name_other_output():
    """HashingEmbedder(64)'s name and dim, another output; counting as CountingEmbedder does."""
    counting = CountingEmbedder()

    def reversed_vectors(texts):
        return [vector[::-1] for vector in counting.embed_documents(texts)]

    embedder = FunctionEmbedder(reversed_vectors, name=counting.name, dim=64)
    embedder.calls = counting.calls
    return embedder


@pytest.mark.parametrize("make_embedder", [other_dimension, same_name_other_output])
def test_vectors_of_another_embedder_are_embedded_again(tmp_path, make_embedder):
    path = tmp_path / "export.jsonl"
    source_store().export_jsonl(path, with_vectors=True)
    embedder = make_embedder()
    target = MemoryStore(backend=InMemoryBackend(), embedder=embedder)
    embedder.calls.clear()
    assert target.import_jsonl(path) == 3
    assert embedder.calls == [  # one call, in file order
        [
            "Alice lives in Porto",
            "Alice drinks green tea\nsaid at breakfast",
            "Bob works as a nurse",
        ]
    ]
    assert target.search(ALICE, query="Alice drinks green tea")[0].key == "tea"


def test_a_file_without_vectors_imports_as_before(tmp_path):
    path = tmp_path / "export.jsonl"
    source_store().export_jsonl(path)
    embedder = CountingEmbedder()
    target = MemoryStore(backend=InMemoryBackend(), embedder=embedder)
    embedder.calls.clear()
    assert target.import_jsonl(path) == 3
    assert len(embedder.texts) == 3
    assert found(target) == found(source_store())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: lines[1].update(vector=[0.5] * 63), "line 2 has a vector that is not 64"),
        (lambda lines: lines[2].update(vector=[float("nan")] * 64), "line 3 has a vector"),
        (lambda lines: lines.pop(0), "line 1 carries a vector, but no embedder line"),
        (lambda lines: lines[0].update(dim="64"), "line 1 is not a memvault embedder line"),
    ],
    ids=["short", "nan", "no embedder line", "bad embedder line"],
)
def test_a_bad_vector_is_a_typed_error_naming_its_line(tmp_path, change, message):
    path = tmp_path / "export.jsonl"
    source_store().export_jsonl(path, with_vectors=True)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    change(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    target = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    with pytest.raises(ImportFormatError, match=message):
        target.import_jsonl(path)
    assert target.count() == 0


def test_a_backend_that_cannot_read_embeddings_refuses_to_export_them(tmp_path):
    class Blind(InMemoryBackend):
        returns_embeddings = False

    store = MemoryStore(backend=Blind(), embedder=HashingEmbedder(64))
    store.put(ALICE, "tea", {"text": "Alice drinks green tea"})
    with pytest.raises(InvalidArgumentError, match="returns_embeddings = False"):
        store.export_jsonl(tmp_path / "export.jsonl", with_vectors=True)
    assert not (tmp_path / "export.jsonl").exists()
    assert store.export_jsonl(tmp_path / "export.jsonl") == 1
