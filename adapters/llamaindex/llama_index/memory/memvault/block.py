"""The memvault memory block for ``llama_index.core.memory.Memory``."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field
from llama_index.core.memory.memory import BaseMemoryBlock
from llama_index.core.utils import get_tokenizer
from llama_index.memory.memvault.messages import (
    latest_user_text,
    message_text,
    to_openai_messages,
)

from memvault import (
    DEFAULT_MEMORY_HEADER,
    ExtractionError,
    FactExtractor,
    InvalidArgumentError,
    Namespace,
    format_memories,
    resolve_namespace,
)
from memvault.filters import normalize_filter

DEFAULT_NAMESPACE: Namespace = ("users", "{user_id}")
"""Default namespace template: one namespace per user, shared by all of that user's sessions."""

_FENCE_OPEN = re.compile(r"^`{3,}memories$")

logger = logging.getLogger(__name__)


def _message_key(session_id: str | None, role: str, text: str) -> str:
    digest = hashlib.sha256(f"{session_id}\x00{role}\x00{text}".encode()).hexdigest()
    return f"turn-{digest[:16]}"


class MemvaultMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory from a memvault store, as a block of a LlamaIndex ``Memory``.

    On every ``Memory.get``/``aget`` the block recalls up to ``k`` memories for the latest user
    message (with text), leaving out memories that repeat a message already in the history, and
    returns them as memvault's fenced block (:func:`memvault.format_memories`), which ``Memory``
    puts into the system message. Messages given to the block (``Memory`` hands over those it
    flushes out of short-term memory, :class:`~llama_index.memory.memvault.MemvaultMemory` every
    finished turn) are stored: by default each message of a role in ``roles`` as one item, with
    a ``FactExtractor`` the facts it draws from them instead. If the extractor's reply cannot be
    parsed (:class:`memvault.ExtractionError`), the block logs a warning and stores the raw
    messages instead, so saving a turn never loses the turn's answer.

    The namespace is ``namespace`` (a template) resolved with ``user_id`` and the ``Memory``'s
    ``session_id``, so ``("users", "{user_id}")`` shares memories across a user's sessions and
    ``("sessions", "{session_id}")`` keeps them per session.

    Raw messages are stored as ``{"text": str, "role": str, "kind": "turn", "session_id":
    str}`` (the shape ``langchain-memvault`` gives turns) under a key hashed from session, role
    and text, so storing the same message twice updates it in place. Facts are stored as
    :meth:`memvault.FactExtractor.save` stores them.

    Args:
        store: A :class:`memvault.MemoryStore`.
        user_id: Fills ``{user_id}`` in the template.
        namespace: Namespace template; default ``("users", "{user_id}")``.
        k: Most memories recalled per turn, ``>= 1``.
        filter: Metadata filter for recall (see :mod:`memvault.filters`), e.g.
            ``{"kind": "fact"}``.
        extractor: Store facts drawn by this :class:`memvault.FactExtractor` (one LLM call per
            put) instead of raw messages.
        roles: Roles whose messages are stored raw; default only the user's words, since
            assistant replies often repeat recalled memories.
        header: Text before the fence; default :data:`memvault.DEFAULT_MEMORY_HEADER`.
        name: Block name, the tag ``Memory`` wraps the block in.
        priority: ``Memory`` truncation priority; ``1`` (default) lets a tight token budget trim
            this block (see :meth:`atruncate`) while chat history stays whole. ``0`` never trims.
        accept_short_term_memory: Whether messages flushed out of short-term memory are stored.

    Raises:
        InvalidArgumentError: If ``store`` is not a memory store, or ``k``/``priority``/``roles``
            is out of range.
        InvalidFilterError: If ``filter`` is not a valid memvault filter.
        InvalidNamespaceError: If the template needs a value that is missing (e.g. ``user_id``).

    """

    name: str = Field(default="memvault", description="The block's name.")
    description: str | None = Field(
        default="Long-term memories from memvault recalled for the latest user message.",
        description="What the block holds.",
    )
    priority: int = Field(default=1, description="Truncation priority (0 = never truncate).")
    store: Any = Field(exclude=True, description="The memvault MemoryStore.")
    user_id: str | None = Field(default=None, description="Fills {user_id} in the template.")
    namespace: tuple[str, ...] = Field(default=DEFAULT_NAMESPACE, description="Template.")
    k: int = Field(default=5, description="Most memories recalled per turn.")
    filter: dict[str, Any] | None = Field(default=None, description="Recall metadata filter.")
    extractor: Any = Field(default=None, exclude=True, description="Optional FactExtractor.")
    roles: tuple[str, ...] = Field(default=("user",), description="Roles stored raw.")
    header: str = Field(default=DEFAULT_MEMORY_HEADER, description="Text before the fence.")

    def __init__(
        self,
        store: Any,
        *,
        user_id: str | None = None,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        k: int = 5,
        filter: dict[str, Any] | None = None,
        extractor: FactExtractor | None = None,
        roles: Sequence[str] = ("user",),
        header: str = DEFAULT_MEMORY_HEADER,
        name: str = "memvault",
        priority: int = 1,
        accept_short_term_memory: bool = True,
    ) -> None:
        if not all(hasattr(store, m) for m in ("asearch", "aput_many")):
            raise InvalidArgumentError(
                f"store must be a memvault MemoryStore, got {type(store).__name__}"
            )
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidArgumentError(f"k must be an int >= 1, got {k!r}")
        if isinstance(priority, bool) or not isinstance(priority, int) or priority < 0:
            raise InvalidArgumentError(
                f"priority must be an int >= 0 (0 = never truncate), got {priority!r}"
            )
        valid_roles = {role.value for role in MessageRole}
        if isinstance(roles, str) or not set(roles) <= valid_roles:
            raise InvalidArgumentError(
                f"roles must be a sequence of {sorted(valid_roles)}, got {roles!r}"
            )
        if extractor is not None and not hasattr(extractor, "asave"):
            raise InvalidArgumentError(
                f"extractor must be a memvault FactExtractor, got {type(extractor).__name__}"
            )
        # Fail now, not at the first turn, on a bad filter or a template value not given.
        normalize_filter(filter)
        resolve_namespace(namespace, {"user_id": user_id, "session_id": "session"})
        super().__init__(
            store=store,
            user_id=user_id,
            namespace=tuple(namespace),
            k=k,
            filter=filter,
            extractor=extractor,
            roles=tuple(roles),
            header=header,
            name=name,
            priority=priority,
            accept_short_term_memory=accept_short_term_memory,
        )

    def resolve(self, session_id: str | None) -> Namespace:
        """Resolve the namespace of one session from ``user_id`` and ``session_id``.

        Raises:
            InvalidNamespaceError: If the template needs ``session_id`` and it is ``None``.

        """
        return resolve_namespace(
            self.namespace, {"user_id": self.user_id, "session_id": session_id}
        )

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """Recall memories for the latest user message (``BaseMemoryBlock._aget``).

        Args:
            messages: The chat history ``Memory`` passes, with the new input appended.
            **block_kwargs: ``session_id`` (from ``Memory``); other entries are ignored.

        Returns:
            The fenced memory block (:func:`memvault.format_memories`) of the ``k`` best
            memories whose text is not already one of ``messages``, or ``""`` when there is no
            user text or no such memory.

        """
        query = latest_user_text(messages)
        if not query:
            return ""
        # Memories that repeat a message already in the history (this session's turns, written
        # through) would only echo the context: skip them and fill up with the next best.
        in_context = {message_text(message) for message in messages or []}
        items = await self.store.asearch(
            self.resolve(block_kwargs.get("session_id")),
            query=query,
            filter=self.filter,
            limit=self.k + len(in_context),
        )
        fresh = [item for item in items if item.text not in in_context]
        return format_memories(fresh[: self.k], header=self.header)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Store messages, raw or as extracted facts (``BaseMemoryBlock._aput``).

        An unparsable extractor reply is logged and the messages are stored raw instead.

        Args:
            messages: Messages, oldest first; ``BaseMemoryBlock.aput`` has put the session id
                into each one's ``additional_kwargs["session_id"]``.

        """
        session_id = next(
            (
                m.additional_kwargs["session_id"]
                for m in messages
                if "session_id" in m.additional_kwargs
            ),
            None,
        )
        namespace = self.resolve(session_id)
        if self.extractor is not None:
            try:
                await self.extractor.asave(self.store, to_openai_messages(messages), namespace)
                return
            except ExtractionError as error:
                logger.warning(
                    "fact extraction failed, storing the raw messages instead: %s (reply: %r)",
                    error,
                    (error.raw or "")[:200],
                )
        items = []
        for message in messages:
            role, text = MessageRole(message.role).value, message_text(message)
            if role in self.roles and text:
                value: dict[str, Any] = {"text": text, "role": role, "kind": "turn"}
                if session_id is not None:
                    value["session_id"] = session_id
                items.append((_message_key(session_id, role, text), value))
        if items:
            await self.store.aput_many(namespace, items)

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """Drop the least relevant memories until about ``tokens_to_truncate`` tokens are freed.

        Overrides ``BaseMemoryBlock.atruncate`` (which drops the whole block) so that a tight
        ``Memory`` token budget keeps the most relevant memories. Tokens are counted with
        LlamaIndex's global tokenizer, as ``Memory`` counts them by default.

        Args:
            content: What :meth:`_aget` returned.
            tokens_to_truncate: Tokens ``Memory`` asks to free.

        Returns:
            The block with its last memory lines removed, or ``None`` when none is left.

        """
        lines = content.split("\n")
        opening = next((i for i, line in enumerate(lines) if _FENCE_OPEN.match(line)), None)
        if opening is None or len(lines) < opening + 3:
            return None
        kept, closing = lines[opening + 1 : -1], lines[-1]
        count = get_tokenizer()
        freed = 0
        while kept and freed < tokens_to_truncate:
            freed += len(count(kept.pop())) + 1
        if not kept:
            return None
        return "\n".join([*lines[: opening + 1], *kept, closing])
