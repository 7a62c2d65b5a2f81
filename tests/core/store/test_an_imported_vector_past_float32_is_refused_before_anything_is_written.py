"""A carried vector that would overflow once stored as float32 (1e300, a huge int, or numbers
whose squared length passes 3.4e38) is refused at validation, naming its line, before any
memory is written; one at the edge is kept."""

import json

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import ImportFormatError


def exported(tmp_path, vector):
    source = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    source.put_many(("users", "alice"), [("tea", {"text": "tea"}), ("city", {"text": "Lisbon"})])
    path = tmp_path / "export.jsonl"
    source.export_jsonl(path, with_vectors=True)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[2]["vector"] = vector
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    "vector",
    [[1e300] * 64, [-1e300] + [0.0] * 63, [10**400] * 64, [1e38] * 64, [3e19] + [0.0] * 63],
    ids=["1e300", "-1e300", "huge int", "1e38 everywhere", "one square past float32"],
)
def test_an_overflowing_vector_is_refused(tmp_path, vector):
    target = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    with pytest.raises(ImportFormatError, match="line 3 has a vector that is not 64 finite"):
        target.import_jsonl(exported(tmp_path, vector))
    assert target.count() == 0


def test_a_vector_within_float32_is_kept(tmp_path):
    target = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    assert target.import_jsonl(exported(tmp_path, [1e19] + [0.0] * 63)) == 2
