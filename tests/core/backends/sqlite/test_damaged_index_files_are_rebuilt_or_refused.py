"""A store whose own SQLite files (the record and BM25 index files memvault keeps in the folder,
not Chroma's ``chroma.sqlite3``) were damaged never crashes on open and never silently serves
less than was written. It either

- **rebuilds**: opens, warns (``warnings.warn`` or a log record at WARNING or above) naming the
  damaged file, and then ``count``, ``get``, ``list_namespaces``, ``export_jsonl`` and a dense,
  a lexical and a hybrid search agree with everything written (and the next open is quiet); or
- **refuses**: raises a ``MemvaultError`` subclass (not a raw ``sqlite3`` error) whose message
  names the damaged file and says how to fix it.

Rebuilding is what the issue asks for wherever the data still exists elsewhere (today Chroma
holds every record, so every case can be rebuilt); refusing is allowed so that a design in
which the damaged file is the only copy of the records passes too, as long as it says so.
Which files are damaged is found, not assumed: every SQLite database in the store folder (by
its header) except Chroma's ``chroma.sqlite3``; all of them at once.

Cases: the whole file overwritten with random bytes; cut to half its length; replaced by a
directory; random bytes over two pages in the middle; every table dropped; the tables holding
a row per memory dropped (bookkeeping left, as if nothing had been written); and an older copy
of the file restored after more puts, updates and deletes.
"""

import json
import logging
import random
import re
import shutil
import sqlite3
import warnings

import pytest

from memvault import HashingEmbedder, MemoryStore, MemvaultError
from tests.core.processes import phrase

NAMESPACES = [("users", "alice"), ("users", "bob"), ("teams", "ops")]
PER_NAMESPACE = 100
FIX_WORDS = re.compile(r"\b(delete|remove|move|rename|restore|rebuild|import|recreate)", re.I)
MODES = ("dense", "lexical", "hybrid")


def open_store(folder):
    return MemoryStore(folder, embedder=HashingEmbedder(64))


def items(first, last):
    """``{(namespace, key): value}`` of the memories numbered ``first`` to ``last - 1``."""
    return {
        (ns, f"{ns[-1]}-{n}"): {"text": phrase(ns[-1], n), "n": n}
        for ns in NAMESPACES
        for n in range(first, last)
    }


def write(folder, memories, *, delete=()):
    store = open_store(folder)
    for ns in NAMESPACES:
        store.put_many(
            ns, [(key, value) for (space, key), value in memories.items() if space == ns]
        )
    for ns, key in delete:
        store.delete(ns, key)
    store.close()


def owned_sqlite_files(folder):
    """The SQLite databases memvault keeps in the store folder (Chroma's own excluded)."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and path.name != "chroma.sqlite3"
        and path.read_bytes()[:16] == b"SQLite format 3\x00"
    )


def without_sidecars(path):
    for suffix in ("-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


# -- the damage ---------------------------------------------------------------------------


def garbage(path, rng):
    path.write_bytes(rng.randbytes(path.stat().st_size))


def truncated(path, rng):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def directory(path, rng):
    path.unlink()
    path.mkdir()
    (path / "placeholder").write_text("a folder where a SQLite file was")


def garbage_mid_file(path, rng):
    data = bytearray(path.read_bytes())
    start = (len(data) // 2) // 4096 * 4096
    data[start : start + 8192] = rng.randbytes(len(data[start : start + 8192]))
    path.write_bytes(bytes(data))


def _tables(db):
    return [
        name
        for (name, sql) in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        if not name.startswith("sqlite_")
    ]


def _drop(db, names):
    virtual = {
        name
        for (name, sql) in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        if (sql or "").upper().startswith("CREATE VIRTUAL")
    }
    for name in sorted(names, key=lambda n: n not in virtual):  # virtual ones (and shadows) first
        db.execute(f'DROP TABLE IF EXISTS "{name}"')
    db.commit()


def tables_dropped(path, rng):
    with sqlite3.connect(path) as db:
        _drop(db, _tables(db))
    db.close()


def data_tables_dropped(path, rng):
    written = len(NAMESPACES) * PER_NAMESPACE
    with sqlite3.connect(path) as db:
        big = [
            name
            for name in _tables(db)
            if db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] >= written
        ]
        assert big, "no table holds a row per memory"
        _drop(db, big)
    db.close()


DAMAGE = {
    "garbage bytes": garbage,
    "truncated": truncated,
    "directory in its place": directory,
    "garbage mid-file": garbage_mid_file,
    "every table dropped": tables_dropped,
    "data tables dropped": data_tables_dropped,
}


# -- the checks ---------------------------------------------------------------------------


def disagreements(store, expected, tmp_path):
    """What the store says that differs from ``expected`` (empty when all agree)."""
    found = {}
    if (count := store.count()) != len(expected):
        found["count"] = f"{count}, expected {len(expected)}"
    wrong = [
        key
        for (ns, key), value in expected.items()
        if getattr(store.get(ns, key), "value", None) != value
    ]
    if wrong:
        found["get"] = f"{len(wrong)} wrong or missing, e.g. {wrong[:3]}"
    namespaces = store.list_namespaces()
    if namespaces != sorted({ns for ns, _ in expected}):
        found["list_namespaces"] = namespaces
    export = tmp_path / "export.jsonl"
    store.export_jsonl(export)
    exported = {
        (tuple(line["namespace"]), line["key"]): line["value"]
        for line in map(json.loads, export.read_text().splitlines())
        if "kind" not in line  # the history lines after the items
    }
    if exported != expected:
        found["export_jsonl"] = f"{len(exported)} items, {len(expected)} expected"
    rng = random.Random(3)
    for ns, key in rng.sample(sorted(expected), 15):
        for mode in MODES:
            for scope in (ns, ()):
                hits = store.search(scope, query=expected[ns, key]["text"], mode=mode, limit=10)
                if key not in [hit.key for hit in hits]:
                    found.setdefault("search misses", []).append(f"{mode} in {scope}: {key}")
    return found


def warnings_naming(files, caught, caplog):
    names = [path.name for path in files]
    said = [str(w.message) for w in caught] + [
        r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING
    ]
    return [message for message in said if any(name in message for name in names)]


def check_rebuilt_or_refused(folder, damaged, expected, tmp_path, caplog):
    """Open the damaged store and check the outcome is one of the two the module allows."""
    caplog.set_level(logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            store = open_store(folder)
        except MemvaultError as error:  # refused
            message = str(error)
            assert type(error) is not MemvaultError, f"untyped refusal: {message}"
            assert any(path.name in message for path in damaged), (
                f"the refusal does not name the damaged file: {message}"
            )
            assert FIX_WORDS.search(message), f"the refusal names no fix: {message}"
            return "refused"
        # anything else raised (sqlite3.DatabaseError, ...) fails the test here
        try:
            wrong = disagreements(store, expected, tmp_path)
        finally:
            store.close()
    assert wrong == {}, "opened the damaged store but serves other data than was written"
    assert warnings_naming(damaged, caught, caplog), "rebuilt without a warning naming the file"

    caplog.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store = open_store(folder)
        try:
            assert disagreements(store, expected, tmp_path) == {}, "lost on the second open"
        finally:
            store.close()
    assert warnings_naming(damaged, caught, caplog) == [], "rebuilt again on the second open"
    return "rebuilt"


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_index_file(case, tmp_path, caplog):
    folder = tmp_path / "store"
    expected = items(0, PER_NAMESPACE)
    write(folder, expected)
    damaged = owned_sqlite_files(folder)
    assert damaged, "the store keeps no SQLite file of its own beside chroma.sqlite3"
    rng = random.Random(case)
    for path in damaged:
        without_sidecars(path)
        DAMAGE[case](path, rng)
    check_rebuilt_or_refused(folder, damaged, expected, tmp_path, caplog)


def test_older_copy_of_index_file_restored(tmp_path, caplog):
    folder, old = tmp_path / "store", tmp_path / "old"
    first = items(0, PER_NAMESPACE // 2)
    write(folder, first)
    damaged = owned_sqlite_files(folder)
    assert damaged, "the store keeps no SQLite file of its own beside chroma.sqlite3"
    old.mkdir()
    for path in damaged:
        shutil.copy2(path, old / path.name)

    later = items(PER_NAMESPACE // 2, PER_NAMESPACE)
    updated = {
        (ns, key): {**value, "text": value["text"] + " updated"}
        for (ns, key), value in list(first.items())[::5]
    }
    deleted = list(first)[1::7]
    write(folder, {**later, **updated}, delete=deleted)
    expected = {**first, **later, **updated}
    for key in deleted:
        del expected[key]

    for path in damaged:
        without_sidecars(path)
        shutil.copy2(old / path.name, path)
    check_rebuilt_or_refused(folder, damaged, expected, tmp_path, caplog)
