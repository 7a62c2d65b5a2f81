"""History is kept in the record file beside the records: it survives the memory's deletion and
the store's reopening; a record file written before history was kept opens without a rebuild
and starts keeping it; and a record file rebuilt from the Chroma index (the file was lost) starts
each restored memory's history anew with an "add" from source "restore"."""

import sqlite3
import warnings

from memvault import HashingEmbedder, MemoryStore, MemvaultWarning

ALICE = ("users", "alice")


def open_store(folder):
    return MemoryStore(folder, embedder=HashingEmbedder(64))


def test_history_survives_delete_and_reopen(tmp_path):
    with open_store(tmp_path) as store:
        store.put(ALICE, "tea", {"text": "Alice likes tea"})
        store.put(ALICE, "tea", {"text": "Alice likes green tea"}, source="tool")
        store.delete(ALICE, "tea")
        before = store.history(ALICE, "tea")
    assert [e.event for e in before] == ["add", "update", "delete"]
    with open_store(tmp_path) as store:
        assert store.get(ALICE, "tea") is None
        assert store.history(ALICE, "tea") == before
        store.put(ALICE, "tea", {"text": "Alice likes tea again"})
        assert [e.event for e in store.history(ALICE, "tea")] == ["add", "update", "delete", "add"]


def test_a_record_file_from_before_history_opens_as_it_is(tmp_path):
    with open_store(tmp_path) as store:
        store.put(ALICE, "tea", {"text": "Alice likes tea"})
    db = sqlite3.connect(tmp_path / "memvault.records.sqlite3")
    db.execute("DROP TABLE history")  # as written by a memvault without history
    db.commit()
    db.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MemvaultWarning)  # no rebuild, no repair
        with open_store(tmp_path) as store:
            assert store.get(ALICE, "tea").text == "Alice likes tea"
            assert store.history(ALICE, "tea") == []
            store.put(ALICE, "tea", {"text": "Alice likes green tea"})
            (entry,) = store.history(ALICE, "tea")
    assert (entry.event, entry.before, entry.after) == (
        "update",
        {"text": "Alice likes tea"},
        {"text": "Alice likes green tea"},
    )


def test_a_lost_record_file_restores_history_as_one_add_per_memory(tmp_path):
    with open_store(tmp_path) as store:
        store.put(ALICE, "tea", {"text": "Alice likes tea"})
        store.put(ALICE, "tea", {"text": "Alice likes green tea"})
        store.put(ALICE, "gone", {"text": "deleted"})
        store.delete(ALICE, "gone")
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"memvault.records.sqlite3{suffix}").unlink(missing_ok=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store = open_store(tmp_path)
    assert any("rebuilt" in str(w.message) for w in caught)
    with store:
        (entry,) = store.history(ALICE, "tea")
        assert (entry.event, entry.source, entry.before, entry.after) == (
            "add",
            "restore",
            None,
            {"text": "Alice likes green tea"},
        )
        assert store.history(ALICE, "gone") == []  # lost with the file


def test_an_older_record_file_keeps_its_history_and_catches_up_from_the_index(tmp_path):
    records = tmp_path / "memvault.records.sqlite3"
    with open_store(tmp_path) as store:
        store.put(ALICE, "tea", {"text": "Alice likes tea"})
        store.put(ALICE, "dog", {"text": "Alice has a dog"})
    old = records.read_bytes()  # closed: the WAL is checkpointed into the file
    with open_store(tmp_path) as store:
        store.put(ALICE, "tea", {"text": "Alice likes green tea"})
        store.delete(ALICE, "dog")
        store.put(ALICE, "cat", {"text": "Alice has a cat"})
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"memvault.records.sqlite3{suffix}").unlink(missing_ok=True)
    records.write_bytes(old)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store = open_store(tmp_path)
    assert any("rebuilt" in str(w.message) for w in caught)
    with store:
        tea = [(e.event, e.source, e.after) for e in store.history(ALICE, "tea")]
        dog = [(e.event, e.source, e.before) for e in store.history(ALICE, "dog")]
        cat = [(e.event, e.source) for e in store.history(ALICE, "cat")]
    assert tea == [
        ("add", "api", {"text": "Alice likes tea"}),
        ("update", "restore", {"text": "Alice likes green tea"}),
    ]
    assert dog == [("add", "api", None), ("delete", "restore", {"text": "Alice has a dog"})]
    assert cat == [("add", "restore")]
