"""`put_many` with one key twice in a batch is refused with `InvalidKeyError` naming the key and
both places, and nothing is written, as `import_jsonl` refuses a file holding one key twice
(issue 29); it used to keep the last value silently."""

import json

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.errors import ImportFormatError, InvalidKeyError

NS = ("users", "alice")


def test_put_many_refuses_a_repeated_key_and_writes_nothing(tmp_path):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))
    batch = [("tea", {"text": "green tea"}), ("dog", {"text": "Rex"}), ("tea", {"text": "coffee"})]

    with pytest.raises(InvalidKeyError, match=r"items\[0\] and items\[2\] both hold key 'tea'"):
        store.put_many(NS, batch)
    assert store.count() == 0

    lines = [
        {"namespace": list(NS), "key": key, "value": value, "created_at": 1.0, "updated_at": 1.0}
        for key, value in batch
    ]
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ImportFormatError, match=r"lines 1 and 3 both hold .* key 'tea'"):
        store.import_jsonl(export)
    assert store.count() == 0
