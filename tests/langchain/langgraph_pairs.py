"""LangGraph's own stores and MemvaultLangGraphStore made alike, for differential tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_memvault import MemvaultEmbeddings, MemvaultLangGraphStore
from langgraph.store.base import Item
from langgraph.store.memory import InMemoryStore

from memvault import HashingEmbedder
from tests.langchain.fakes import small_store


def index_config(fields: list[str] | None = None) -> dict[str, Any]:
    """One LangGraph ``IndexConfig`` both stores take: the hashing embedder, ``fields``."""
    return {
        "dims": 64,
        "embed": MemvaultEmbeddings(HashingEmbedder(64)),
        "fields": fields or ["text"],
    }


def paired_stores(fields: list[str] | None = None) -> tuple[InMemoryStore, MemvaultLangGraphStore]:
    """An ``InMemoryStore`` and a memvault store with the same index config.

    The memvault store searches densely, so its scores are cosine similarities as LangGraph's.
    """
    config = index_config(fields)
    return InMemoryStore(index=config), MemvaultLangGraphStore(
        small_store(search_mode="dense"), index=config
    )


def keys(items: Iterable[Item]) -> list[tuple[tuple[str, ...], str]]:
    """The ``(namespace, key)`` of items, in their order."""
    return [(item.namespace, item.key) for item in items]


def scored(items: Iterable[Any]) -> list[tuple[str, float | None]]:
    """``(key, score rounded to 4 places)`` of search items, in their order."""
    return [(i.key, None if i.score is None else round(i.score, 4)) for i in items]
