"""A hypothesis state machine: random operations on a real store and on a plain dict, side by side.

The shape of Chroma's property tests: :class:`StoreStateMachine` applies puts (with TTLs),
deletes, clock moves and cleanups to a :class:`~memvault.MemoryStore` on the backend under
test and to a dict model, and after every step checks that every read of the store (get,
recency, dense, lexical and the default search mode, count, list) agrees with the model,
computed with :mod:`memvault.testing.oracle`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from memvault.backends.base import Backend
from memvault.embedding import Embedder, HashingEmbedder
from memvault.model import HistoryEntry, HistoryEvent, Namespace, record_id
from memvault.store import NOT_GIVEN, MemoryStore
from memvault.testing.base import ContractBase
from memvault.testing.clock import FakeClock
from memvault.testing.oracle import (
    filter_matches,
    in_scope,
    is_live,
    searched_text,
    shares_query_word,
)

NAMESPACES = [("u", "a"), ("u", "ab"), ("u", "a", "x"), ("v",)]
PREFIXES = [(), ("u",), ("u", "a"), ("v",), ("w",)]
KEYS = ["k1", "k2", "k3", "k/4"]
WORDS = ["tea", "dog", "lisbon", "nurse", "rain", "piano"]
"""Words of texts and queries: no two share a stem, so whole-word matching is exact."""
FUNCTION_WORDS = ["the", "where", "is"]
"""Stop words a query may hold (lexical search drops them unless nothing else is left)."""
FILTERS = [None, {"n": {"$gt": 1}}, {"n": {"$ne": 2}}, {"kind": "fact"}, {"n": {"$in": [0, 3]}}]
SCORE_TOLERANCE = 1e-4
"""How far a cosine similarity from the store may be from the one computed here."""

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
queries = st.lists(st.sampled_from(WORDS + FUNCTION_WORDS), min_size=1, max_size=4).map(" ".join)


def _value(
    text: str, n: dict[str, Any], kind: dict[str, Any], context: dict[str, Any]
) -> dict[str, Any]:
    return {"text": text, **n, **kind, **context}


def _context(words: str) -> dict[str, Any]:
    return {"context": words}


def _holds_items(machine: Any) -> bool:
    return bool(machine.model)


def _holds_items_and_lexical(machine: Any) -> bool:
    return bool(machine.model) and "lexical" in machine.modes


# Named functions, not lambdas, in strategies and preconditions: Hypothesis 6.100 (the declared
# floor) parses a lambda's source for its repr at every draw; the state machine took 86 s there
# against 2.4 s on 6.170, and 5.5 s with named functions.
values = st.builds(
    _value,
    texts,
    st.sampled_from([{}, {"n": 0}, {"n": 1}, {"n": 2}, {"n": 3.5}, {"n": "2"}]),
    st.sampled_from([{}, {"kind": "fact"}, {"kind": "turn"}]),
    st.one_of(st.just({}), texts.map(_context)),
)


def query_rule() -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A hypothesis ``rule`` drawing ``prefix``, ``query``, ``filter`` and ``limit``."""
    return rule(
        prefix=st.sampled_from(PREFIXES),
        query=queries,
        filter=st.sampled_from(FILTERS),
        limit=st.integers(1, 6),
    )


Ident = tuple[Namespace, str]


@dataclass(frozen=True)
class ModelItem:
    """What the model holds for one key: what the store must return for it.

    Attributes:
        value: The value last put.
        created_at: When the key was first put, kept while it stays live (Unix seconds).
        updated_at: When it was last put (Unix seconds).
        expires_at: When it expires (Unix seconds), or None.
    """

    value: dict[str, Any]
    created_at: float
    updated_at: float
    expires_at: float | None


class StoreStateMachine(RuleBasedStateMachine):
    """Random puts, deletes, clock moves and cleanups on a store and a dict model.

    Make one for a backend with :meth:`for_backend`; run it with
    :func:`hypothesis.stateful.run_state_machine_as_test`, as
    :meth:`StateMachineTests.test_store_matches_a_dict_model` does. Each example opens a
    store on a new backend and closes it at the end.

    Attributes:
        backend_factory: Makes the new, empty backend of each example.
        embedder_factory: Makes the store's embedder (a 64-dimension hashing embedder).
    """

    backend_factory: Callable[[], Backend]
    embedder_factory: Callable[[], Embedder] = staticmethod(lambda: HashingEmbedder(64))

    @classmethod
    def for_backend(
        cls,
        make_backend: Callable[[], Backend],
        make_embedder: Callable[[], Embedder] | None = None,
    ) -> type[StoreStateMachine]:
        """A state machine whose stores sit on backends from ``make_backend``.

        Args:
            make_backend: Returns a new, empty backend; called once per example.
            make_embedder: Returns the stores' embedder; default a 64-dimension
                :class:`~memvault.HashingEmbedder`.

        Returns:
            A subclass to give to :func:`~hypothesis.stateful.run_state_machine_as_test`.
        """
        attributes: dict[str, Any] = {"backend_factory": staticmethod(make_backend)}
        if make_embedder is not None:
            attributes["embedder_factory"] = staticmethod(make_embedder)
        return type(f"{cls.__name__}ForBackend", (cls,), attributes)

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.embedder = self.embedder_factory()
        self.store = MemoryStore(
            backend=self.backend_factory(), embedder=self.embedder, clock=self.clock.time
        )
        self.modes = tuple(self.store.backend.search_modes)
        self.model: dict[Ident, ModelItem] = {}
        self.histories: dict[Ident, list[HistoryEntry]] = {}

    def teardown(self) -> None:
        """Close the store and with it the backend."""
        self.store.close()

    # -- the model ------------------------------------------------------------------------

    def live(self, prefix: Namespace = ()) -> dict[Ident, ModelItem]:
        """The model's items live now under ``prefix``."""
        return {
            ident: item
            for ident, item in self.model.items()
            if is_live(item.expires_at, self.clock.now) and in_scope(ident[0], prefix)
        }

    def candidates(
        self, prefix: Namespace, filter: dict[str, Any] | None
    ) -> dict[Ident, ModelItem]:
        """The model's items a search of ``prefix`` with ``filter`` may return now."""
        return {
            ident: item
            for ident, item in self.live(prefix).items()
            if filter_matches(item.value, filter)
        }

    # -- writes ---------------------------------------------------------------------------

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        value=values,
        ttl=st.sampled_from([NOT_GIVEN, None, 5.0, 50.0]),
        source=st.sampled_from(["api", "tool"]),
        event=st.sampled_from([None, "merge"]),
    )
    def put(
        self,
        namespace: Namespace,
        key: str,
        value: dict[str, Any],
        ttl: Any,
        source: str,
        event: Literal["merge"] | None,
    ) -> None:
        """Put an item with the store's TTL, none, or a few seconds."""
        self.store.put(namespace, key, value, ttl=ttl, source=source, event=event)
        old = self.live().get((namespace, key))
        now = self.clock.now
        if old is None:
            self.gone((namespace, key), source)  # an expired version still on disk
        kind: HistoryEvent = "add" if old is None else "update" if event is None else "merge"
        before = None if old is None else old.value
        if before != value:  # the same value again records nothing (memvault.history)
            self.histories.setdefault((namespace, key), []).append(
                HistoryEntry(namespace, key, kind, now, before, value, source)
            )
        self.model[(namespace, key)] = ModelItem(
            value=value,
            created_at=old.created_at if old else now,
            updated_at=now,
            expires_at=None if ttl in (NOT_GIVEN, None) else now + ttl,
        )

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    def delete(self, namespace: Namespace, key: str) -> None:
        """Delete a key, present or not."""
        self.store.delete(namespace, key)
        self.gone((namespace, key), "api")

    @rule(seconds=st.sampled_from([1.0, 10.0, 100.0]))
    def advance(self, seconds: float) -> None:
        """Move the clock on."""
        self.clock.advance(seconds)

    @rule()
    def cleanup(self) -> None:
        """Delete what has expired; the store counts what the model drops."""
        expired = set(self.model) - set(self.live())
        assert self.store.cleanup() == len(expired)
        for ident in expired:
            self.gone(ident, "cleanup")

    def gone(self, ident: Ident, source: str) -> None:
        """Record in the model's history that the item at ``ident``, if any, goes now."""
        item = self.model.get(ident)
        if item is None:
            return
        live = is_live(item.expires_at, self.clock.now)
        at = self.clock.now if live or item.expires_at is None else item.expires_at
        self.histories[ident].append(
            HistoryEntry(*ident, "delete" if live else "expire", at, item.value, None, source)
        )
        self.model.pop(ident)

    # -- reads ----------------------------------------------------------------------------

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    def history(self, namespace: Namespace, key: str) -> None:
        """``history`` gives every change the model made to the key, oldest first."""
        assert self.store.history(namespace, key) == self.histories.get((namespace, key), [])

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    def get(self, namespace: Namespace, key: str) -> None:
        """``get`` gives the live item with its value and times, else None."""
        item = self.store.get(namespace, key)
        entry = self.live().get((namespace, key))
        if entry is None:
            assert item is None
        else:
            assert item is not None
            assert item.value == entry.value
            assert (item.created_at, item.updated_at, item.expires_at) == (
                entry.created_at,
                entry.updated_at,
                entry.expires_at,
            )

    @rule(
        prefix=st.sampled_from(PREFIXES),
        filter=st.sampled_from(FILTERS),
        limit=st.integers(1, 6),
        offset=st.integers(0, 3),
    )
    def search_recent(
        self, prefix: Namespace, filter: dict[str, Any] | None, limit: int, offset: int
    ) -> None:
        """Without a query: newest first, ties by id, then offset and limit."""
        expected = sorted(
            (-item.updated_at, record_id(*ident), ident)
            for ident, item in self.candidates(prefix, filter).items()
        )[offset : offset + limit]
        found = self.store.search(prefix, filter=filter, limit=limit, offset=offset)
        assert [(i.namespace, i.key) for i in found] == [ident for _, _, ident in expected]

    @precondition(_holds_items)
    @query_rule()
    def search_dense(
        self, prefix: Namespace, query: str, filter: dict[str, Any] | None, limit: int
    ) -> None:
        """Dense: the ``limit`` best cosine similarities of the embedder's vectors."""
        candidates = self.candidates(prefix, filter)
        q = np.array(self.embedder.embed_query(query))
        scores = {
            ident: float(np.array(self.embedder.embed_query(searched_text(item.value))) @ q)
            for ident, item in candidates.items()
        }
        found = self.store.search(prefix, query=query, filter=filter, limit=limit, mode="dense")
        assert len(found) == min(limit, len(candidates))
        for item in found:
            assert item.score_type == "cosine"
            assert scores[(item.namespace, item.key)] == pytest.approx(
                item.score, abs=SCORE_TOLERANCE
            )
        best = sorted(scores.values(), reverse=True)[: len(found)]
        assert [i.score for i in found] == pytest.approx(best, abs=SCORE_TOLERANCE)

    @precondition(_holds_items_and_lexical)
    @query_rule()
    def search_lexical(
        self, prefix: Namespace, query: str, filter: dict[str, Any] | None, limit: int
    ) -> None:
        """Lexical: live matching items sharing a query word, BM25 > 0, best first."""
        matching = {
            ident: item
            for ident, item in self.candidates(prefix, filter).items()
            if shares_query_word(item.value, query)
        }
        found = self.store.search(prefix, query=query, filter=filter, limit=limit, mode="lexical")
        idents = [(item.namespace, item.key) for item in found]
        assert len(idents) == len(set(idents)) == min(limit, len(matching))
        assert set(idents) <= set(matching)
        for item in found:
            assert item.value == matching[(item.namespace, item.key)].value
            assert item.score_type == "bm25" and item.score is not None and item.score > 0
        scores = [item.score for item in found if item.score is not None]
        assert len(scores) == len(found) and scores == sorted(scores, reverse=True)

    @precondition(_holds_items)
    @query_rule()
    def search_default_mode(
        self, prefix: Namespace, query: str, filter: dict[str, Any] | None, limit: int
    ) -> None:
        """The default mode returns distinct live matching items, best score first."""
        candidates = self.candidates(prefix, filter)
        found = self.store.search(prefix, query=query, filter=filter, limit=limit)
        idents = [(item.namespace, item.key) for item in found]
        assert len(idents) == len(set(idents)) == min(limit, len(candidates))
        assert set(idents) <= set(candidates)
        for item in found:
            assert item.value == candidates[(item.namespace, item.key)].value
        scores = [item.score for item in found if item.score is not None]
        assert len(scores) == len(found) and scores == sorted(scores, reverse=True)

    @invariant()
    def counts_and_namespaces_agree(self) -> None:
        """``count`` and ``list_namespaces`` match the model's live items after every step."""
        live = self.live()
        assert self.store.count() == len(live)
        assert self.store.list_namespaces() == sorted({namespace for namespace, _ in live})


class StateMachineTests(ContractBase):
    """Part of :class:`~memvault.testing.BackendContract`: the store state machine.

    Its examples and steps come from :attr:`state_machine_settings`; every example's store
    sits on a new backend from :meth:`make_backend`.
    """

    def test_store_matches_a_dict_model(self) -> None:
        """Random operations leave the store and a dict model agreeing on every read."""
        machine = StoreStateMachine.for_backend(self.make_backend, self.make_embedder)
        run_state_machine_as_test(machine, settings=self.state_machine_settings)
