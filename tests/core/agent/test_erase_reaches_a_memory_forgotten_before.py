"""Forget now, erase later: an erase reaches a memory forgotten earlier without erase, or expired.

A plain forget keeps the memory's text in its history. Asked again with ``erase=True`` (by the
same description, or by the memory's key), the agent layer finds the key in the history and
erases it: no history entry and no export holds the text afterwards.
"""

import pytest

from memvault import AgentMemory, HashingEmbedder, InMemoryBackend, MemoryStore
from memvault.testing import FakeClock

SECRET = "I had an operation on my spleen last year."


def alice(**options):
    clock = FakeClock()
    store = MemoryStore(backend=InMemoryBackend(), embedder=HashingEmbedder(), clock=clock.time)
    return AgentMemory(store, **options).scope(user_id="alice", thread_id="t"), clock


def traces(scope, tmp_path):
    export = tmp_path / "all.jsonl"
    scope.store.export_jsonl(export)
    return export.read_text().count("spleen")


@pytest.mark.parametrize("asked_by", ["description", "key"])
def test_a_forgotten_memory_is_erased_when_asked_again_with_erase(asked_by, tmp_path):
    scope, _ = alice()
    (saved,) = scope.save_turns([{"role": "user", "content": SECRET}])
    (forgotten,) = scope.forget("that I had an operation on my spleen")
    assert traces(scope, tmp_path) > 0  # a plain forget keeps the history

    asked = "that I had an operation on my spleen" if asked_by == "description" else saved.key
    erased = scope.forget(asked, erase=True)

    assert [item.key for item in erased] == [forgotten.key]
    assert traces(scope, tmp_path) == 0
    events = [e.event for e in scope.store.history(scope.namespace, forgotten.key)]
    assert events[-1] == "erase"


def test_an_expired_memory_is_erased(tmp_path):
    scope, clock = alice(ttl=10)
    scope.save_turns([{"role": "user", "content": SECRET}])
    clock.advance(60)
    scope.store.cleanup()

    erased = scope.forget("that I had an operation on my spleen", erase=True)

    assert len(erased) == 1
    assert traces(scope, tmp_path) == 0
