"""An export's history entries hold values as they were stored, perhaps before
``MAX_TEXT_CHARS`` was a rule: a ``before`` longer than the limit still imports, while the
item itself, which is written, must keep to it."""

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.items import MAX_TEXT_CHARS
from tests.core.bad_inputs import history_line, import_line

LONG_BEFORE = "An old pasted log line. " * 2000  # 48,000 characters


def test_an_update_from_a_long_text_imports_with_its_history(tmp_path):
    assert len(LONG_BEFORE) > MAX_TEXT_CHARS
    entry = history_line(
        key="imported", before={"text": LONG_BEFORE}, after={"text": "imported memory"}
    )
    export = tmp_path / "export.jsonl"
    export.write_text(f"{import_line()}\n{entry}\n", encoding="utf-8")
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(64))

    assert store.import_jsonl(export) == 1

    (update,) = store.history(("users", "alice"), "imported")
    assert update.before == {"text": LONG_BEFORE}
    assert update.after == {"text": "imported memory"}
