"""The agent-memory layer: what both framework adapters do with a store, written once.

A :class:`MemoryStore` stores what it is given. An agent needs a memory: one that keeps what
the user *told* it and not what the user asked, that says a repeated thing once, that forgets
for good when asked, and that reaches only the memories of the user the run is for.
:class:`AgentMemory` holds that policy over a store and a namespace template;
:meth:`AgentMemory.scope` resolves the template with one run's ids (failing closed when an id
is missing) into a :class:`MemoryScope`, which every operation goes through:

- :meth:`MemoryScope.remember` writes one memory; a memory that says what a stored one says
  (the same :func:`~memvault.statements.memory_key`: content words in order, so case,
  punctuation, contractions and first or third person do not count) updates that item in place
  (``created_at`` kept, ``updated_at`` moved, ``mentions`` counted, ``sessions`` recorded), and
  with ``similarity_threshold`` set, so does a near-duplicate
  (:func:`~memvault.statements.near_duplicate`).
- :meth:`MemoryScope.save_turns` stores a finished turn: the statements of the user's messages
  as ``kind="turn"`` memories (questions, requests and pleasantries are not memories, see
  :mod:`memvault.statements`), each with a ``context`` as an ingested conversation's turns have
  (the turn's date and the messages around it, :mod:`memvault.turn_context`), or, with an
  extractor, the facts it draws, each recording the keys of the statements it came from
  (``sources``).
- :meth:`MemoryScope.recall` finds memories for a query: no two with the same normal form, none
  that repeats a text already in the conversation, and statements always before any stored
  question or pleasantry.
- :meth:`MemoryScope.reconcile` (and the turns saved with a reconciler) decide with a model
  how new facts change what is stored: supersede, not overwrite. A changed fact ("I moved to
  Porto") is a new memory that closes the one it replaces (:meth:`MemoryScope.supersede`,
  also for callers without a model); a fact that ends one ("I no longer eat meat") closes it.
  A memory holds from when it was said (``valid_from``: the turn's time) until it is closed
  (``valid_to``); recall finds what holds now, or ``as_of`` another time.
- :meth:`MemoryScope.forget` removes a memory by key or by description ("that I am learning
  Portuguese"), together with its sources and every memory in scope that states the same;
  with ``erase=True`` the text goes from the history too.
- A memory that reads as an instruction to the model (:mod:`memvault.firewall`) is held:
  written with ``"quarantined"`` (the reason), searchable, never recalled into a prompt nor
  shown to a reconciler unless ``AgentMemory(..., inject_quarantined=True)``.
- Every memory written records who wrote it and in which session (its
  :class:`~memvault.model.Provenance`: a saved statement ``"user"``, an extractor's or
  reconciler's fact ``"extractor"``, the ``remember`` tool's ``"tool"``, a direct
  :meth:`MemoryScope.remember` ``"api"`` or the origin its ``source`` names, with the scope's
  ``session_id``). Only the origins ``AgentMemory(..., trust=...)`` trusts (by default all but
  ``"assistant"``) are recalled into a prompt (:meth:`MemoryScope.context`); every origin
  stays searchable (:meth:`MemoryScope.recall`).
- :meth:`AgentMemory.render` is the one rendering of memories (:func:`format_memories`) for
  prompts and tool results, always under a header saying they are data, not instructions.

Every memory this layer writes has the value shape ``{"text": str, "kind": "fact" | "turn",
"mentions": int, "sessions": [str], "session_id": str, "sources": [key], "role": "user",
"context": str, "supersedes": key, "superseded_by": key, "quarantined": str, ...}``
(``session_id``, ``sources``, ``role``, ``context``, the supersede links and ``quarantined``
only where known) under the key
:func:`~memvault.statements.memory_key` of its text (``<key>-2``... where that key holds
another memory, or one that no longer holds).

The modules, each one concept, in the order they build on each other:

- :mod:`memvault.agent.validation`: the argument checks.
- :mod:`memvault.agent.scope`: :class:`~memvault.agent.scope.ScopedStore`, one scope's
  memories: remember (merged into what says the same), forget, the candidates a model is shown.
- :mod:`memvault.agent.recall`: the recall policy.
- :mod:`memvault.agent.changes`: carrying out a reconciliation's decisions
  (:class:`MemoryChange`).
- :mod:`memvault.agent.pipeline`: store work and model calls written once, run sync or async.
- :mod:`memvault.agent.turns`: the pipelines that store new facts and finished turns.
- :mod:`memvault.agent.memory`: :class:`AgentMemory` and :class:`MemoryScope`, the doors.
- :mod:`memvault.agent.log`: the layer's logger, ``"memvault.agent_memory"``.
"""

from memvault.agent.changes import MemoryChange
from memvault.agent.memory import AgentMemory, MemoryScope, amemory_context, memory_context

__all__ = ["AgentMemory", "MemoryScope", "MemoryChange", "memory_context", "amemory_context"]
