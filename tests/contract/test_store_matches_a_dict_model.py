"""A hypothesis state machine applies random operations to the real store and to a plain dict
model side by side (the shape of Chroma's own property tests) and checks they always agree."""

from __future__ import annotations

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from memvault import NOT_GIVEN, HashingEmbedder, MemoryStore
from memvault.backends.base import record_id
from memvault.filters import matches, normalize_filter
from tests.contract.clock import FakeClock
from tests.contract.conftest import make_backend

NAMESPACES = [("u", "a"), ("u", "ab"), ("u", "a", "x"), ("v",)]
PREFIXES = [(), ("u",), ("u", "a"), ("v",), ("w",)]
KEYS = ["k1", "k2", "k3", "k/4"]
WORDS = ["tea", "dog", "lisbon", "nurse", "rain", "piano"]
FILTERS = [None, {"n": {"$gt": 1}}, {"n": {"$ne": 2}}, {"kind": "fact"}, {"n": {"$in": [0, 3]}}]
CLIENT = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
values = st.builds(
    lambda text, n, kind: {"text": text, **n, **kind},
    texts,
    st.sampled_from([{}, {"n": 0}, {"n": 1}, {"n": 2}, {"n": 3.5}, {"n": "2"}]),
    st.sampled_from([{}, {"kind": "fact"}, {"kind": "turn"}]),
)


QUERY_ARGS = {
    "prefix": st.sampled_from(PREFIXES),
    "query": texts,
    "filter": st.sampled_from(FILTERS),
    "limit": st.integers(1, 6),
}


class StoreVersusModel(RuleBasedStateMachine):
    backend_kind = "memory"

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.embedder = HashingEmbedder(32)
        self.store = MemoryStore(
            backend=make_backend(self.backend_kind, CLIENT),
            embedder=self.embedder,
            clock=self.clock.time,
        )
        self.model: dict[tuple, dict] = {}

    def teardown(self) -> None:
        self.store.close()

    def live(self, prefix=()):
        now = self.clock.now
        return {
            ident: entry
            for ident, entry in self.model.items()
            if (entry["expires_at"] is None or entry["expires_at"] > now)
            and ident[0][: len(prefix)] == prefix
        }

    @rule(
        namespace=st.sampled_from(NAMESPACES),
        key=st.sampled_from(KEYS),
        value=values,
        ttl=st.sampled_from([NOT_GIVEN, None, 5.0, 50.0]),
    )
    def put(self, namespace, key, value, ttl):
        self.store.put(namespace, key, value, ttl=ttl)
        old = self.live().get((namespace, key))
        now = self.clock.now
        self.model[(namespace, key)] = {
            "value": value,
            "created_at": old["created_at"] if old else now,
            "updated_at": now,
            "expires_at": None if ttl in (NOT_GIVEN, None) else now + ttl,
        }

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    def delete(self, namespace, key):
        self.store.delete(namespace, key)
        self.model.pop((namespace, key), None)

    @rule(seconds=st.sampled_from([1.0, 10.0, 100.0]))
    def advance(self, seconds):
        self.clock.advance(seconds)

    @rule()
    def cleanup(self):
        expired = set(self.model) - set(self.live())
        assert self.store.cleanup() == len(expired)
        for ident in expired:
            del self.model[ident]

    @rule(namespace=st.sampled_from(NAMESPACES), key=st.sampled_from(KEYS))
    def get(self, namespace, key):
        item = self.store.get(namespace, key)
        entry = self.live().get((namespace, key))
        if entry is None:
            assert item is None
        else:
            assert item.value == entry["value"]
            assert (item.created_at, item.updated_at, item.expires_at) == (
                entry["created_at"],
                entry["updated_at"],
                entry["expires_at"],
            )

    @rule(
        prefix=st.sampled_from(PREFIXES),
        filter=st.sampled_from(FILTERS),
        limit=st.integers(1, 6),
        offset=st.integers(0, 3),
    )
    def search_recent(self, prefix, filter, limit, offset):
        clauses = normalize_filter(filter)
        expected = sorted(
            (
                (-entry["updated_at"], record_id(*ident), ident)
                for ident, entry in self.live(prefix).items()
                if matches(entry["value"], clauses)
            ),
        )[offset : offset + limit]
        found = self.store.search(prefix, filter=filter, limit=limit, offset=offset)
        assert [(i.namespace, i.key) for i in found] == [ident for _, _, ident in expected]

    @precondition(lambda self: self.model)
    @rule(**QUERY_ARGS)
    def search_query(self, prefix, query, filter, limit):
        candidates = self.candidates(prefix, filter)
        q = np.array(self.embedder.embed_query(query))
        scores = {
            ident: float(np.array(self.embedder.embed_query(e["value"]["text"])) @ q)
            for ident, e in candidates.items()
        }
        found = self.store.search(prefix, query=query, filter=filter, limit=limit, mode="dense")
        assert len(found) == min(limit, len(candidates))
        for item in found:
            assert scores[(item.namespace, item.key)] == pytest.approx(item.score, abs=1e-4)
        best = sorted(scores.values(), reverse=True)[: len(found)]
        assert [i.score for i in found] == pytest.approx(best, abs=1e-4)

    def candidates(self, prefix, filter):
        clauses = normalize_filter(filter)
        return {
            ident: entry
            for ident, entry in self.live(prefix).items()
            if matches(entry["value"], clauses)
        }

    @precondition(lambda self: self.model)
    @rule(**QUERY_ARGS)
    def search_default_mode(self, prefix, query, filter, limit):
        candidates = self.candidates(prefix, filter)
        found = self.store.search(prefix, query=query, filter=filter, limit=limit)
        idents = [(item.namespace, item.key) for item in found]
        assert len(idents) == len(set(idents)) == min(limit, len(candidates))
        assert set(idents) <= set(candidates)
        for item in found:
            assert item.value == candidates[(item.namespace, item.key)]["value"]
        assert [i.score for i in found] == sorted((i.score for i in found), reverse=True)

    @invariant()
    def counts_and_namespaces_agree(self):
        live = self.live()
        assert self.store.count() == len(live)
        assert self.store.list_namespaces() == sorted({ns for ns, _ in live})


class ChromaStoreVersusModel(StoreVersusModel):
    backend_kind = "chroma"


class ApproximateChromaStoreVersusModel(StoreVersusModel):
    """Every dense search through Chroma's index, none through the exact small-scope path."""

    backend_kind = "chroma-ann"


class SharedChromaStoreVersusModel(StoreVersusModel):
    backend_kind = "chroma-server"


RUN = settings(
    max_examples=200,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestInMemoryBackendMatchesModel = StoreVersusModel.TestCase
TestInMemoryBackendMatchesModel.settings = RUN
TestChromaBackendMatchesModel = ChromaStoreVersusModel.TestCase
TestChromaBackendMatchesModel.settings = RUN
TestApproximateChromaBackendMatchesModel = ApproximateChromaStoreVersusModel.TestCase
TestApproximateChromaBackendMatchesModel.settings = RUN
TestSharedChromaBackendMatchesModel = SharedChromaStoreVersusModel.TestCase
TestSharedChromaBackendMatchesModel.settings = RUN
