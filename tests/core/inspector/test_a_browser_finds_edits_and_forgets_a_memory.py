"""In a real browser (Debian's Chromium, headless), the inspector over a store holding a LoCoMo
conversation takes a user through their memories: the printed URL lets them in, the tree counts
each speaker's turns, a search finds a fact they said, its page takes an edit that the history
timeline then shows, and forgetting it (after the confirmation page) removes it; the store,
read through its public API, holds the edit in the history and no longer the memory. No request
of the pages fails and the browser logs no error (it asks for the pages' icon, not a missing
``/favicon.ico``)."""

import re

import pytest

pytest.importorskip("starlette", reason="needs the extra memvault[ui]")
pytest.importorskip("jinja2", reason="needs the extra memvault[ui]")

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore  # noqa: E402
from tests.core.inspector.browser import inspector  # noqa: E402
from tests.core.inspector.conversation import ingest_by_speaker  # noqa: E402

CAROLINE = ("users", "caroline")
SAID = "I went to a LGBTQ support group yesterday and it was so powerful."  # LoCoMo 26, D1:3
EDITED = "Caroline went to an LGBTQ support group on 7 May 2023; it was so powerful."


def by_id(name: str) -> str:
    return f'[data-testid="{name}"]'


def test_a_browser_finds_edits_and_forgets_a_memory(browser_page, locomo_dir):
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(256))
    counts = ingest_by_speaker(store, locomo_dir / "26.json")
    assert counts == {CAROLINE: 211, ("users", "melanie"): 208}
    page = browser_page
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on("console", lambda m: m.type == "error" and failed.append(m.text))

    with inspector(store) as url:
        page.goto(url)  # the token URL sets the cookie and leaves the address bar
        assert "token" not in page.url
        caroline = page.locator('[data-namespace="users/caroline"]')
        assert caroline.locator(f"> {by_id('namespace-count')}").inner_text() == "211 here"
        users = page.locator('[data-namespace="users"]')
        assert users.locator(f"> {by_id('namespace-total')}").inner_text() == "419 in all"

        page.click(by_id("nav-search"))
        page.fill(by_id("search-query"), "went to a support group")
        page.fill(by_id("search-namespace"), "users/caroline")
        page.click(by_id("search-submit"))
        found = page.locator(by_id("result-row")).filter(has_text=SAID)
        assert found.locator(by_id("result-rank")).inner_text() == "1"
        why = found.locator(by_id("result-why")).inner_text()
        assert re.search(r"dense: rank \d+, cosine 0\.\d{4}; lexical: rank \d+, BM25 \d", why)
        key = found.get_attribute("data-key")
        assert key is not None and key.endswith(":D1:3")

        found.locator(by_id("result-link")).click()
        assert page.locator(by_id("page-title")).inner_text() == key
        assert page.locator(by_id("memory-text")).inner_text() == SAID

        page.fill(by_id("edit-text"), EDITED)
        page.click(by_id("edit-submit"))
        assert page.locator(by_id("memory-text")).inner_text() == EDITED
        update = page.locator(f'{by_id("history-entry")}[data-event="update"]')
        assert update.locator(by_id("history-before")).inner_text() == SAID
        assert update.locator(by_id("history-after")).inner_text() == EDITED
        assert update.locator(by_id("history-source")).inner_text() == "ui"

        page.click(by_id("forget-link"))
        assert EDITED in page.locator(by_id("confirm-what")).inner_text()
        assert store.get(CAROLINE, key) is not None  # the confirmation page changed nothing
        page.click(by_id("confirm-submit"))
        assert page.locator(by_id("no-live-memory")).is_visible()
        events = page.locator(by_id("history-event")).all_inner_texts()
        assert events == ["add", "update", "delete"]
        assert re.fullmatch(r"[^?]*/item/users/caroline/[^?]+", page.url)
        page.wait_for_load_state("networkidle")

    assert failed == []
    assert not [url for url in asked if url.endswith("/favicon.ico")]
    assert [url for url in asked if url.endswith("/static/favicon.svg")]

    assert store.get(CAROLINE, key) is None
    assert store.count(CAROLINE) == 210
    history = store.history(CAROLINE, key)
    assert [(e.event, e.source) for e in history] == [
        ("add", "turn"),
        ("update", "ui"),
        ("delete", "ui"),
    ]
    assert history[1].before is not None and history[1].before["text"] == SAID
    assert history[1].after is not None and history[1].after["text"] == EDITED
    assert history[1].after["turn_id"] == "D1:3"  # the edit kept the rest of the value
    assert not store.search(CAROLINE, query="went to a support group", filter={"turn_id": "D1:3"})
