"""Helpers of the bad-input catalogues (core, LangChain, LlamaIndex): a store with a few memories
to compare before and after, hostile inputs, and a Chroma server that went down."""

from __future__ import annotations

import http.server
import json
import shutil
import threading
from pathlib import Path

from memvault import HashingEmbedder, MemoryStore

"""Marks a case whose fix must live in ``store.py`` (issue 9, part 3/4)."""

ALICE = ("users", "alice")
TEA = {"text": "Alice drinks green tea"}


def nested(depth: int) -> list:
    """A list nested ``depth`` deep, built without recursion: ``[[[...]]]``."""
    outer: list = []
    inner = outer
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    return outer


DEEP = nested(5000)
"""A value part nested 5,000 deep (Python's default recursion limit is 1,000)."""
BIG = 10**400
"""A 401-digit integer: beyond float range, let alone 64 bits."""
DEEP_JSON = "[" * 5000 + "]" * 5000
"""JSON nested 5,000 deep."""


def self_referencing() -> dict:
    value: dict = {"text": "loops"}
    value["self"] = value
    return value


def open_store(folder: Path) -> MemoryStore:
    """The catalogue's on-disk Chroma store with the hashing embedder."""
    return MemoryStore(folder, embedder=HashingEmbedder(64))


def prefilled_store(folder: Path) -> MemoryStore:
    """A store holding four memories in three namespaces, one with a TTL (see :func:`copy_of`
    for a quicker way to make many)."""
    store = open_store(folder)
    store.put(ALICE, "tea", {**TEA, "kind": "preference", "n": 3, "tags": ["drink"]})
    store.put(ALICE, "mood", {"text": "Alice is tired today"}, ttl=3600)
    store.put(("users", "bob"), "job", {"text": "Bob is a nurse", "since": 2020})
    store.put(("orgs", "acme"), "hq", {"text": "Acme is based in Porto", "nested": {"a": [1]}})
    return store


def copy_of(template: Path, folder: Path) -> Path:
    """A copy of a closed store's folder (far quicker than filling a new store)."""
    shutil.copytree(template, folder)
    return folder


def exported(store: MemoryStore, path: Path) -> str:
    """Everything a store holds, as its JSON Lines export."""
    store.export_jsonl(path)
    return path.read_text(encoding="utf-8")


def reopened_export(folder: Path, path: Path) -> str:
    """The export of the store at ``folder`` as a fresh process would see it: opened anew."""
    store = open_store(folder)
    try:
        return exported(store, path)
    finally:
        store.close()


def import_line(**fields) -> str:
    """One line of an export file: a valid item with ``fields`` replaced (as raw JSON text when
    given as a ``str`` starting with ``"raw:"``)."""
    item = {
        "namespace": ["users", "alice"],
        "key": "imported",
        "value": {"text": "imported memory"},
        "created_at": 1_700_000_000.0,
        "updated_at": 1_700_000_000.0,
        "expires_at": None,
    }
    raw = {}
    for name, value in fields.items():
        if isinstance(value, str) and value.startswith("raw:"):
            item[name] = f"@{name}@"
            raw[f'"@{name}@"'] = value[4:]
        else:
            item[name] = value
    line = json.dumps(item, ensure_ascii=False)
    for placeholder, text in raw.items():
        line = line.replace(placeholder, text)
    return line


HISTORY_LINE = {
    "kind": "history",
    "namespace": ["users", "alice"],
    "key": "tea",
    "event": "update",
    "at": 5.0,
    "before": {"text": "x"},
    "after": {"text": "y"},
    "source": "api",
}


def history_line(**fields) -> str:
    """One history line of an export file with ``fields`` replaced."""
    return json.dumps({**HISTORY_LINE, **fields})


class _FakeChroma(http.server.BaseHTTPRequestHandler):
    """Answers the three requests ``chromadb.HttpClient`` makes when it is created."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if "identity" in self.path:
            body = {"user_id": "", "tenant": "default_tenant", "databases": ["default_database"]}
        elif "databases" in self.path:
            body = {"id": "0" * 8 + "-0000-0000-0000-" + "0" * 12, "name": "default_database"}
            body["tenant"] = "default_tenant"
        else:
            body = {"name": "default_tenant"}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def client_of_a_server_that_went_down():
    """A ``chromadb.HttpClient`` whose server (on 127.0.0.1) stopped right after it connected."""
    import chromadb
    from chromadb.config import Settings

    server = http.server.HTTPServer(("127.0.0.1", 0), _FakeChroma)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        return chromadb.HttpClient(
            host=host, port=port, settings=Settings(anonymized_telemetry=False)
        )
    finally:
        server.shutdown()
        server.server_close()
