"""A hypothesis state machine: random operations on a real store and on a plain dict, side by side.

The shape of Chroma's property tests: :class:`StoreStateMachine` applies puts (with TTLs and
validity spans), supersedes, deletes, erases, clock moves and cleanups to a
:class:`~memvault.MemoryStore` on the backend under test and to a dict model, and after every
step checks that every read of the store (get, history, recency, dense, lexical and the
default search mode, of now and ``as_of`` past times, count, list) agrees with the model,
computed with :mod:`memvault.testing.oracle`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
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
from memvault.errors import InvalidArgumentError, ItemNotFoundError
from memvault.model import HistoryEntry, HistoryEvent, Namespace, record_id
from memvault.store import NOT_GIVEN, MemoryStore
from memvault.testing.base import ContractBase
from memvault.testing.clock import FakeClock
from memvault.testing.oracle import (
    filter_matches,
    holds_during,
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
VALID_FROM = [None, None, -50.0, -5.0, 5.0]
"""A put's ``valid_from``, in seconds from now (``None``: not given, so now)."""
VALID_TO = [None, None, None, -1.0, 5.0, 50.0]
"""A put's ``valid_to``, in seconds from now (``None``: still holds); one not after
``valid_from`` is refused."""
CLOSING = [None, None, -1.0, 5.0]
"""A supersede's ``at``, in seconds from now (``None``: the default)."""
AS_OF = [None, None, None, 0.0, 1.0, 5.0, 10.0, 60.0]
"""A search's ``as_of``, in seconds before now (``None``: a search of now)."""

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
    """A hypothesis ``rule`` drawing ``prefix``, ``query``, ``filter``, ``limit``, ``back``.

    ``back``: seconds before now of the search's ``as_of`` (:data:`AS_OF`), or ``None``.
    """
    return rule(
        prefix=st.sampled_from(PREFIXES),
        query=queries,
        filter=st.sampled_from(FILTERS),
        limit=st.integers(1, 6),
        back=st.sampled_from(AS_OF),
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
        valid_from: When it began to hold (Unix seconds).
        valid_to: When it stopped holding (Unix seconds), or None: it still holds.
    """

    value: dict[str, Any]
    created_at: float
    updated_at: float
    expires_at: float | None
    valid_from: float
    valid_to: float | None


class StoreStateMachine(RuleBasedStateMachine):
    """Random puts, supersedes, deletes, erases, clock moves, cleanups on a store and a model.

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
        self, prefix: Namespace, filter: dict[str, Any] | None, as_of: float | None = None
    ) -> dict[Ident, ModelItem]:
        """The model's items a search of ``prefix`` with ``filter`` may return now.

        Those that hold now, or with ``as_of`` (Unix seconds) those that held then.
        """
        since = self.clock.now if as_of is None else as_of
        return {
            ident: item
            for ident, item in self.live(prefix).items()
            if filter_matches(item.value, filter)
            and holds_during(item.valid_from, item.valid_to, since, as_of)
        }

    def as_of(self, back: float | None) -> float | None:
        """A search's ``as_of``: ``back`` seconds before now, or None (a search of now)."""
        return None if back is None else self.clock.now - back

    def record(
        self,
        ident: Ident,
        kind: HistoryEvent,
        before: Any,
        after: Any,
        source: str,
        *,
        reclosed: bool = False,
    ) -> None:
        """Record a change in the model's history (memvault.history's rule).

        The same value again records nothing, unless ``reclosed``: its ``valid_to`` changed
        (a close, or a put that opens or closes it), which records the entry even so.
        """
        if before != after or reclosed:
            self.histories.setdefault(ident, []).append(
                HistoryEntry(*ident, kind, self.clock.now, before, after, source)
            )

    # -- writes ---------------------------------------------------------------------------

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        value=values,
        ttl=st.sampled_from([NOT_GIVEN, None, 5.0, 50.0]),
        source=st.sampled_from(["api", "tool"]),
        event=st.sampled_from([None, "merge"]),
        valid_from=st.sampled_from(VALID_FROM),
        valid_to=st.sampled_from(VALID_TO),
    )
    def put(
        self,
        namespace: Namespace,
        key: str,
        value: dict[str, Any],
        ttl: Any,
        source: str,
        event: Literal["merge"] | None,
        valid_from: float | None,
        valid_to: float | None,
    ) -> None:
        """Put an item with the store's TTL, none, or a few seconds, and a validity span.

        ``valid_from`` and ``valid_to`` are seconds from now; a span that ends before it
        begins is refused and writes nothing.
        """
        now = self.clock.now
        old = self.live().get((namespace, key))
        begins = now if valid_from is None else now + valid_from
        if valid_from is None and old is not None:
            begins = old.valid_from  # a live item keeps when it began unless told
        ends = None if valid_to is None else now + valid_to
        options = {
            "ttl": ttl,
            "source": source,
            "event": event,
            "valid_from": None if valid_from is None else begins,
            "valid_to": ends,
        }
        if ends is not None and ends <= begins:
            with pytest.raises(InvalidArgumentError, match="valid_to"):
                self.store.put(namespace, key, value, **options)
            return
        self.store.put(namespace, key, value, **options)
        if old is None:
            self.gone((namespace, key), source)  # an expired version still on disk
        kind: HistoryEvent = "add" if old is None else "update" if event is None else "merge"
        self.record(
            (namespace, key),
            kind,
            None if old is None else old.value,
            value,
            source,
            reclosed=old is not None and old.valid_to != ends,
        )
        self.model[(namespace, key)] = ModelItem(
            value=value,
            created_at=old.created_at if old else now,
            updated_at=now,
            expires_at=None if ttl in (NOT_GIVEN, None) else now + ttl,
            valid_from=begins,
            valid_to=ends,
        )

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        by=st.sampled_from([None, *KEYS]),
        at=st.sampled_from(CLOSING),
    )
    def supersede(self, namespace: Namespace, key: str, by: str | None, at: float | None) -> None:
        """Close a key, perhaps by another of its namespace, now or ``at`` seconds from now.

        The model predicts the refusals: ``by`` equal to ``key``, a key or ``by`` without a
        live item, a key or ``by`` closed already, a closing time not after the key's
        ``valid_from``.
        """
        now = self.clock.now
        live = self.live()
        old, new = live.get((namespace, key)), None if by is None else live.get((namespace, by))
        closing = None if at is None else now + at
        refused: type[Exception] | None = None
        if by == key:
            refused = InvalidArgumentError
        elif (
            old is None
            or (by is not None and (new is None or new.valid_to is not None))
            or old.valid_to is not None
        ):
            refused = ItemNotFoundError
        else:
            if closing is None:
                closing = now if new is None else max(new.valid_from, old.valid_from + 1e-3)
            if closing <= old.valid_from:
                refused = InvalidArgumentError
        given = None if at is None else now + at
        if refused is not None:
            with pytest.raises(refused):
                self.store.supersede(namespace, key, by=by, at=given)
            return
        assert old is not None and closing is not None
        self.store.supersede(namespace, key, by=by, at=given)
        closed = {**old.value, **({"superseded_by": by} if by is not None else {})}
        self.record((namespace, key), "update", old.value, closed, "api", reclosed=True)
        self.model[(namespace, key)] = replace(old, value=closed, updated_at=now, valid_to=closing)
        if by is not None and new is not None:
            linked = {**new.value, "supersedes": key}
            self.record((namespace, by), "update", new.value, linked, "api")
            self.model[(namespace, by)] = replace(new, value=linked, updated_at=now)

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        erase=st.sampled_from([False, False, True]),
    )
    def delete(self, namespace: Namespace, key: str, erase: bool) -> None:
        """Delete a key, present or not; or erase it: its item goes, and its history's values.

        An erase, where there was an item or a history, leaves each entry its event, time
        and source with no values and records ``"erase"`` now; where neither, nothing. The
        key's history is read at once (another step reading it is rare).
        """
        self.store.delete(namespace, key, erase=erase)
        ident = (namespace, key)
        if not erase:
            self.gone(ident, "api")
            return
        self.model.pop(ident, None)
        if self.histories.get(ident):
            self.histories[ident] = [
                replace(entry, before=None, after=None) for entry in self.histories[ident]
            ]
            self.histories[ident].append(
                HistoryEntry(*ident, "erase", self.clock.now, None, None, "api")
            )
        assert self.store.history(namespace, key) == self.histories.get(ident, [])

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
            assert (
                item.created_at,
                item.updated_at,
                item.expires_at,
                item.valid_from,
                item.valid_to,
            ) == (
                entry.created_at,
                entry.updated_at,
                entry.expires_at,
                entry.valid_from,
                entry.valid_to,
            )

    @rule(
        prefix=st.sampled_from(PREFIXES),
        filter=st.sampled_from(FILTERS),
        limit=st.integers(1, 6),
        offset=st.integers(0, 3),
        back=st.sampled_from(AS_OF),
    )
    def search_recent(
        self,
        prefix: Namespace,
        filter: dict[str, Any] | None,
        limit: int,
        offset: int,
        back: float | None,
    ) -> None:
        """Without a query: newest first, ties by id, then offset and limit; now or as of."""
        as_of = self.as_of(back)
        expected = sorted(
            (-item.updated_at, record_id(*ident), ident)
            for ident, item in self.candidates(prefix, filter, as_of).items()
        )[offset : offset + limit]
        found = self.store.search(prefix, filter=filter, limit=limit, offset=offset, as_of=as_of)
        assert [(i.namespace, i.key) for i in found] == [ident for _, _, ident in expected]

    @precondition(_holds_items)
    @query_rule()
    def search_dense(
        self,
        prefix: Namespace,
        query: str,
        filter: dict[str, Any] | None,
        limit: int,
        back: float | None,
    ) -> None:
        """Dense: the ``limit`` best cosine similarities of the embedder's vectors."""
        as_of = self.as_of(back)
        candidates = self.candidates(prefix, filter, as_of)
        q = np.array(self.embedder.embed_query(query))
        scores = {
            ident: float(np.array(self.embedder.embed_query(searched_text(item.value))) @ q)
            for ident, item in candidates.items()
        }
        found = self.store.search(
            prefix, query=query, filter=filter, limit=limit, mode="dense", as_of=as_of
        )
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
        self,
        prefix: Namespace,
        query: str,
        filter: dict[str, Any] | None,
        limit: int,
        back: float | None,
    ) -> None:
        """Lexical: live matching items sharing a query word, BM25 > 0, best first."""
        as_of = self.as_of(back)
        matching = {
            ident: item
            for ident, item in self.candidates(prefix, filter, as_of).items()
            if shares_query_word(item.value, query)
        }
        found = self.store.search(
            prefix, query=query, filter=filter, limit=limit, mode="lexical", as_of=as_of
        )
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
        self,
        prefix: Namespace,
        query: str,
        filter: dict[str, Any] | None,
        limit: int,
        back: float | None,
    ) -> None:
        """The default mode returns distinct live matching items, best score first."""
        as_of = self.as_of(back)
        candidates = self.candidates(prefix, filter, as_of)
        found = self.store.search(prefix, query=query, filter=filter, limit=limit, as_of=as_of)
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
