"""Printing memories (the CLI's list, the Jupyter table) and choosing the memories a reconciler
is shown screen all of them in one call of the firewall's classifier, not one call each; the
held one is still told apart."""

import pytest

import memvault.firewall_classifier
from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.agent.scope import ScopedStore
from memvault.arguments import NOT_GIVEN
from memvault.rendering import html_table
from tests.core.cli import cli

ALICE = ("users", "alice")
TEXTS = {"tea": "Alice likes tea", "coffee": "Alice likes coffee", "odd": "Alice likes HOLDME"}


@pytest.fixture
def calls(monkeypatch):
    """The classifier's calls (their texts); it holds a text that says HOLDME."""
    seen: list[list[str]] = []

    def classify_many(texts):
        seen.append(list(texts))
        return ["override: fake" if "HOLDME" in text else None for text in texts]

    monkeypatch.setattr(memvault.firewall_classifier, "classify_many", classify_many)
    return seen


def _fill(store: MemoryStore) -> MemoryStore:
    for key, text in TEXTS.items():
        store.put(ALICE, key, {"text": text})
    return store


def test_the_cli_list_screens_once(calls, tmp_path):
    with _fill(MemoryStore(tmp_path / "store")):
        pass
    printed = cli("list", store=tmp_path / "store").stdout
    assert len(calls) == 1 and sorted(calls[0]) == sorted(TEXTS.values())
    assert printed.count("held: override: fake") == 1


def test_the_table_screens_once(calls):
    store = _fill(MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(32)))
    table = html_table(store.search(ALICE))
    assert len(calls) == 1 and table.count("override: fake") == 1


def test_reconciliation_candidates_are_screened_once(calls):
    store = _fill(MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(32)))
    scoped = ScopedStore(store, ALICE, None, NOT_GIVEN, None)
    shown = scoped.candidates(["Alice likes tea", "Alice likes coffee"], wanted=3)
    assert len(calls) == 1
    assert {item.key for item in shown} == {"tea", "coffee"}
