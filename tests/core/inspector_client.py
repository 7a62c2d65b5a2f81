"""The inspector (``memvault ui``) over an in-memory store, through Starlette's test client,
signed in as a browser is after opening the printed URL; helpers to read its pages."""

from __future__ import annotations

import itertools
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="needs the extra memvault[ui]")
pytest.importorskip("jinja2", reason="needs the extra memvault[ui]")

from starlette.testclient import TestClient  # noqa: E402

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore  # noqa: E402
from memvault.inspector.app import build_app  # noqa: E402
from memvault.inspector.security import Secrets  # noqa: E402

HOST, PORT = "127.0.0.1", 8765
ORIGIN = f"http://{HOST}:{PORT}"
START = 1_764_000_000.0  # 2025-11-24T16:00:00Z


def new_store() -> MemoryStore:
    """An in-memory store with the hashing embedder and a clock a minute on at each reading."""
    ticks = itertools.count()
    return MemoryStore(
        backend=InMemoryBackend(),
        embedder=HashingEmbedder(),
        clock=lambda: START + 60 * next(ticks),
    )


def anonymous(
    store: MemoryStore, host: str = HOST, base_url: str = ORIGIN
) -> tuple[TestClient, Secrets]:
    """A client of a new inspector over ``store`` (bound to ``host``, port 8765, reached at
    ``base_url``) that has not opened the token URL."""
    secrets = Secrets(host, PORT)
    client = TestClient(build_app(store, secrets), base_url=base_url, follow_redirects=False)
    return client, secrets


def browser(store: MemoryStore) -> tuple[TestClient, Secrets]:
    """A client that opened the printed URL: it holds the token's cookie."""
    client, secrets = anonymous(store)
    assert client.get(f"/?token={secrets.token}").status_code == 303
    return client, secrets


def submit(client: TestClient, secrets: Secrets, url: str, **fields: str):
    """POST a form as the inspector's own page sends it (its Origin and form token)."""
    data = {"form_token": secrets.form_token, **fields}
    return client.post(url, data=data, headers={"Origin": ORIGIN})


def snapshot(store: MemoryStore, folder: Path) -> bytes:
    """Everything the store holds, memories and every history entry, as export bytes."""
    written = folder / "snapshot.jsonl"
    store.export_jsonl(written)
    return written.read_bytes()


VOID = {"input", "br", "link", "meta", "img", "hr"}


class _ByTestId(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, str | None]] = []
        self.found: dict[str, list[str]] = {}
        self.attrs: dict[str, list[dict[str, str | None]]] = {}

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        testid = named.get("data-testid")
        if testid:
            self.attrs.setdefault(testid, []).append(named)
        if tag in VOID:
            return
        if testid:
            self.found.setdefault(testid, []).append("")
        self.open.append((tag, testid))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, testid in self.open:
            if testid:
                self.found[testid][-1] += data


def by_testid(html: str) -> _ByTestId:
    parser = _ByTestId()
    parser.feed(html)
    return parser


def texts(html: str, testid: str) -> list[str]:
    """The text of each element with ``data-testid=testid``, whitespace collapsed."""
    return [" ".join(t.split()) for t in by_testid(html).found.get(testid, [])]


def attributes(html: str, testid: str) -> list[dict[str, str | None]]:
    """The attributes of each element with ``data-testid=testid``."""
    return by_testid(html).attrs.get(testid, [])
