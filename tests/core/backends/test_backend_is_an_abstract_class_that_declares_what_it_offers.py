"""``memvault.backends.Backend`` is an abstract base class: its primitives must be written, the
rest comes by default, and what a backend offers beyond them it declares (search modes,
compare-and-set), which the store reads instead of probing for methods."""

import inspect

import pytest

from memvault import HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.backends import Backend
from memvault.errors import InvalidArgumentError
from memvault.model import Validity


class ProtocolOnly:
    """A backend written against memvault 0.1's protocol, which it never subclassed."""

    search_modes = ("dense",)


class NoCompareAndSet(InMemoryBackend):
    supports_compare_and_set = False


def test_the_backend_is_abstract_and_names_what_a_subclass_lacks():
    assert inspect.isabstract(Backend)

    class Partial(Backend):
        def get(self, ids):
            return [None for _ in ids]

    with pytest.raises(TypeError, match="abstract method") as raised:
        Partial()
    for missing in ("upsert", "delete", "dense", "scan", "close"):
        assert missing in str(raised.value)


def test_a_protocol_only_backend_is_told_to_subclass():
    with pytest.raises(InvalidArgumentError, match=r"class ProtocolOnly\(Backend\)"):
        MemoryStore(backend=ProtocolOnly(), embedder=HashingEmbedder(16))


def test_compare_and_set_needs_a_backend_that_declares_it():
    with MemoryStore(backend=NoCompareAndSet(), embedder=HashingEmbedder(16)) as store:
        store.put(("u",), "k", {"text": "plain writes work"})
        with pytest.raises(InvalidArgumentError, match="supports_compare_and_set = False"):
            store.put(("u",), "k", {"text": "x"}, if_updated_at=None)
        assert store.get(("u",), "k").text == "plain writes work"


def test_a_backend_without_lexical_search_refuses_it_by_default():
    backend = InMemoryBackend()
    assert Backend.lexical is not type(backend).lexical  # the record file keeps BM25
    with pytest.raises(InvalidArgumentError, match="keeps no lexical"):
        Backend.lexical(backend, "tea", (), clauses=[], now=0.0, valid=Validity(0.0), limit=1)
    backend.close()
