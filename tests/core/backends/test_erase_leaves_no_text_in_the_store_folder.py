"""An erased memory's text is in no file of its store folder: not in the record file, and not
in Chroma's (``chroma.sqlite3``, which kept it in its write-ahead log and in freed space, and
the HNSW segment folders); the index stays whole and in step with the record file.

Every file under the folder is read as bytes after the store closes, and the text, its
distinctive words and a top-level field of the value (which Chroma keeps as metadata of its
own) must occur 0 times. See ``docs/erase.md``.
"""

import struct
import warnings

import pytest

from memvault import ChromaBackend, HashingEmbedder, MemoryStore, MemvaultWarning, StoreBusyError
from memvault.backends import chroma

NS = ("users", "alice")
SECRET = "Alice was diagnosed with hepatitis zebrafinch"
SECRET_TOO = "Alice now also takes quokkapril daily"
TRACES = [SECRET, SECRET_TOO, "zebrafinch", "quokkapril", "wombatitis"]
"""What must be nowhere: the texts, their made-up words, and the ``topic`` field's value."""
OTHERS = 12


def open_store(path, **options):
    # exact_scope=0: every dense search goes through Chroma's index, so a search that finds a
    # memory shows the index holds it.
    return MemoryStore(
        backend=ChromaBackend(path, exact_scope=0, **options), embedder=HashingEmbedder(64)
    )


def traces_in(folder):
    """``{relative path: {trace: count}}`` of every file under ``folder`` holding a trace."""
    found = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        counts = {t: data.count(t.encode()) for t in TRACES if t.encode() in data}
        if counts:
            found[str(path.relative_to(folder))] = counts
    return found


def put_others(store):
    store.put_many(
        NS, [(f"note-{n}", {"text": f"note {n} about garden {n % 3}"}) for n in range(OTHERS)]
    )


def assert_others_found_by_the_index(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", MemvaultWarning)  # nothing to repair at open
        store = open_store(path)
    try:
        assert store.get(NS, "health") is None
        assert store.count(NS) == OTHERS
        assert store.backend.index.count() == OTHERS
        for mode in ("dense", "hybrid"):
            hits = store.search(NS, query="note 7 about garden 1", mode=mode, limit=3)
            assert hits[0].key == "note-7", mode
        hits = store.search(NS, query=SECRET, mode="dense", limit=OTHERS + 1)
        assert "health" not in [hit.key for hit in hits]
        assert [e.event for e in store.history(NS, "health")][-1] == "erase"
        assert all(e.before is None and e.after is None for e in store.history(NS, "health"))
    finally:
        store.close()


def test_an_erased_memory_indexed_in_two_versions_is_in_no_file(tmp_path):
    store = open_store(tmp_path)
    put_others(store)
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.backend.drain()
    store.put(NS, "health", {"text": f"{SECRET}. {SECRET_TOO}", "topic": "wombatitis"})
    store.backend.drain()
    assert store.search(NS, query=SECRET, mode="dense", limit=1)[0].key == "health"
    assert "chroma.sqlite3" in traces_in(tmp_path)  # what the erase has to remove

    store.delete(NS, "health", erase=True)
    assert store.get(NS, "health") is None
    store.close()

    assert traces_in(tmp_path) == {}
    assert_others_found_by_the_index(tmp_path)


def test_a_memory_updated_and_erased_before_the_index_caught_up_is_in_no_file(tmp_path):
    store = open_store(tmp_path)
    put_others(store)
    store.backend.drain()
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.put(NS, "health", {"text": f"{SECRET}. {SECRET_TOO}", "topic": "wombatitis"})
    assert store.backend.records.outbox_size() == 1  # never drained

    store.delete(NS, "health", erase=True)
    store.close()

    assert traces_in(tmp_path) == {}
    assert_others_found_by_the_index(tmp_path)


def test_text_in_the_unused_space_of_the_hnsw_files_is_cleared(tmp_path):
    store = open_store(tmp_path)
    put_others(store)
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.backend.drain()
    # Chroma's hnswlib writes a new index's files as long as its capacity, from memory it never
    # cleared: past the elements they may hold any text the process's heap held. Put it there.
    (segment,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    _, _, capacity, elements, stride = struct.unpack(
        "=iQQQQ", (segment / "header.bin").read_bytes()[:36]
    )
    assert (capacity - elements) * 4 > len(SECRET)  # room in both files
    for name, used in (("data_level0.bin", elements * stride), ("length.bin", elements * 4)):
        with open(segment / name, "r+b") as file:
            file.seek(used)
            file.write(SECRET.encode())
    written = (segment / "data_level0.bin").read_bytes()[: elements * stride]

    store.delete(NS, "health", erase=True)
    store.close()

    assert traces_in(tmp_path) == {}
    assert (segment / "data_level0.bin").read_bytes()[: elements * stride] == written
    assert_others_found_by_the_index(tmp_path)


def test_set_aside_index_copies_go_and_damaged_record_files_are_named(tmp_path):
    store = open_store(tmp_path)
    put_others(store)
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.backend.drain()
    # As an index moved aside when it could not be opened, and a record file moved aside as
    # damaged (chroma._Folder.set_aside, LocalBackend._open_records): both hold the text.
    aside = tmp_path / "chroma.damaged-20260101T000000"
    aside.mkdir()
    (aside / "chroma.sqlite3").write_bytes((tmp_path / "chroma.sqlite3").read_bytes())
    damaged = tmp_path / "memvault.records.sqlite3.damaged-20260101T000000"
    damaged.write_bytes(b"SQLite format 3\0 ... " + SECRET.encode())

    with pytest.warns(MemvaultWarning, match=r"memvault\.records\.sqlite3\.damaged-20260101"):
        store.delete(NS, "health", erase=True)
    store.close()

    assert not aside.exists()
    assert traces_in(tmp_path) == {damaged.name: {SECRET: 1, "zebrafinch": 1}}  # kept, named


def test_an_index_of_another_layout_is_rebuilt_without_the_text(tmp_path, monkeypatch):
    store = open_store(tmp_path)
    put_others(store)
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.backend.drain()
    # A Chroma whose write-ahead log lacks a column the scrub relies on: the collection is
    # deleted through Chroma instead, and the index refilled from the record file.
    monkeypatch.setattr(chroma, "_LOG_COLUMNS", {*chroma._LOG_COLUMNS, "not_in_chroma"})

    with pytest.warns(MemvaultWarning, match="thrown away and is rebuilt from the record file"):
        store.delete(NS, "health", erase=True)
    assert store.backend.records.outbox_size() == 0  # refilled at once
    assert store.backend.index.count() == OTHERS
    assert store.search(NS, query="note 7 about garden 1", mode="dense")[0].key == "note-7"
    store.close()

    assert traces_in(tmp_path) == {}
    assert_others_found_by_the_index(tmp_path)


def test_an_erase_the_index_could_not_finish_is_finished_at_close(tmp_path, monkeypatch):
    store = open_store(tmp_path)
    put_others(store)
    store.put(NS, "health", {"text": SECRET, "topic": "wombatitis"})
    store.backend.drain()
    scrub = chroma.ChromaIndex.erase

    def busy(self):
        raise StoreBusyError("another process kept Chroma's database busy")

    monkeypatch.setattr(chroma.ChromaIndex, "erase", busy)
    with pytest.raises(StoreBusyError, match="is erased, but not yet the vector index"):
        store.delete(NS, "health", erase=True)
    assert store.get(NS, "health") is None
    assert set(traces_in(tmp_path)) == {"chroma.sqlite3"}  # the record file is clean
    assert store.backend.records.erase_pending()

    monkeypatch.setattr(chroma.ChromaIndex, "erase", scrub)
    store.close()  # the next drain finishes the erase

    assert traces_in(tmp_path) == {}
    assert_others_found_by_the_index(tmp_path)
