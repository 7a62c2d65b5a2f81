"""A LangChain key-value store over one namespace of a memvault store."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any

from langchain_core.stores import BaseStore

from memvault import InvalidArgumentError, MemoryStore
from memvault.arguments import NOT_GIVEN
from memvault.errors import shown
from memvault.items import validate_items, validate_ttl
from memvault.model import Namespace
from memvault.namespace import validate_namespace

_PAGE = 100


def _keys(keys: Any) -> list[Any]:
    """``keys`` as a list (each key is checked by the store), or an error naming the fix."""
    if isinstance(keys, (str, bytes)) or not isinstance(keys, Iterable):
        raise InvalidArgumentError(
            f"keys must be a list of keys such as ['k1', 'k2'], got {type(keys).__name__} "
            f"{shown(keys)}"
        )
    return list(keys)


def _check_prefix(prefix: Any) -> None:
    if prefix is not None and not isinstance(prefix, str):
        raise InvalidArgumentError(f"prefix must be a str or None, got {shown(prefix)}")


class MemvaultKVStore(BaseStore[str, dict[str, Any]]):
    """A ``langchain_core.stores.BaseStore[str, dict]`` whose keys are the items of one namespace.

    Values are memvault values: dicts with a non-empty ``"text"`` (what gets embedded) and any
    other JSON entries as metadata. What is written here is a memory like any other: the
    retriever, the tools and the middleware recall it. Every call goes to the core store.

    A key's item is its item whether or not what it says still holds: ``mget`` returns, and
    ``yield_keys`` lists, an item closed by :meth:`memvault.MemoryStore.supersede` (a
    correction) too, which recall leaves out; ``mset`` over it writes a value that holds from
    now.

    Args:
        store: The :class:`memvault.MemoryStore`.
        namespace: The namespace tuple, e.g. ``("users", "alice", "kv")``. Keys live in exactly
            this namespace; items in namespaces below it are not part of this store.
        ttl: Seconds until written items expire; ``None`` never; default the store's ``ttl``.

    Raises:
        memvault.InvalidArgumentError: If ``store`` is not a MemoryStore or ``ttl`` is not a
            positive number of seconds; from the methods, if ``keys`` is not a list of keys or
            ``prefix`` not a str.
        memvault.errors.InvalidNamespaceError: If ``namespace`` is not a non-empty tuple of strings.
        memvault.errors.InvalidKeyError, memvault.errors.InvalidValueError: From ``mset``,
            when a key is bad or a value lacks a non-empty ``"text"`` or is not JSON; nothing
            is written then.

    """

    def __init__(self, store: MemoryStore, namespace: Namespace, *, ttl: Any = NOT_GIVEN) -> None:
        if not isinstance(store, MemoryStore):
            raise InvalidArgumentError(
                f"MemvaultKVStore takes a memvault.MemoryStore, got {type(store).__name__}"
            )
        if ttl is not NOT_GIVEN:
            validate_ttl(ttl)
        self.store = store
        self.namespace = validate_namespace(namespace)
        self.ttl = ttl

    def mget(self, keys: Sequence[str]) -> list[dict[str, Any] | None]:
        """Values for ``keys`` in order, ``None`` where absent or expired (``BaseStore.mget``)."""
        items = [self.store.get(self.namespace, key) for key in _keys(keys)]
        return [item.value if item is not None else None for item in items]

    def mset(self, key_value_pairs: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Upsert ``(key, value)`` pairs in one ``MemoryStore.put_many`` (``BaseStore.mset``).

        A key given twice keeps its last value, as ``BaseStore.mset`` sets each pair in turn.
        """
        pairs = validate_items(key_value_pairs, last_wins=True).items()
        self.store.put_many(self.namespace, pairs, ttl=self.ttl)

    def mdelete(self, keys: Sequence[str]) -> None:
        """Delete ``keys``; absent keys are ignored (``BaseStore.mdelete``)."""
        for key in _keys(keys):
            self.store.delete(self.namespace, key)

    def _keys(self, page: list[Any], prefix: str | None) -> list[str]:
        return [
            item.key
            for item in page
            if item.namespace == self.namespace and (not prefix or item.key.startswith(prefix))
        ]

    def yield_keys(self, *, prefix: str | None = None) -> Iterator[str]:
        """Yield the keys, most recently written first, page by page (``BaseStore.yield_keys``).

        Keys of closed items are listed too, as ``mget`` returns them.

        Args:
            prefix: Only keys that start with this string.

        """
        _check_prefix(prefix)
        offset = 0
        while page := self.store.search(
            self.namespace, limit=_PAGE, offset=offset, include_closed=True
        ):
            yield from self._keys(page, prefix)
            offset += len(page)

    async def amget(self, keys: Sequence[str]) -> list[dict[str, Any] | None]:
        """Async form of :meth:`mget`."""
        items = await asyncio.gather(*(self.store.aget(self.namespace, key) for key in _keys(keys)))
        return [item.value if item is not None else None for item in items]

    async def amset(self, key_value_pairs: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Async form of :meth:`mset`."""
        pairs = validate_items(key_value_pairs, last_wins=True).items()
        await self.store.aput_many(self.namespace, pairs, ttl=self.ttl)

    async def amdelete(self, keys: Sequence[str]) -> None:
        """Async form of :meth:`mdelete`."""
        for key in _keys(keys):
            await self.store.adelete(self.namespace, key)

    async def ayield_keys(self, *, prefix: str | None = None) -> AsyncIterator[str]:
        """Async form of :meth:`yield_keys` (an async generator)."""
        _check_prefix(prefix)
        offset = 0
        while page := await self.store.asearch(
            self.namespace, limit=_PAGE, offset=offset, include_closed=True
        ):
            for key in self._keys(page, prefix):
                yield key
            offset += len(page)
