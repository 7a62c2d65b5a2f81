"""A LlamaIndex ``Memory`` whose finished turns reach memvault, and the one-line way to get one."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from llama_index.core.async_utils import asyncio_run
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.memory import Memory
from llama_index.core.memory.memory import BaseMemoryBlock
from llama_index.memory.memvault.block import MemvaultMemoryBlock

from memvault import NOT_GIVEN, AgentMemory, MemoryStore


class MemvaultMemory(Memory):
    """``llama_index.core.memory.Memory`` that writes each finished turn through to memvault.

    A plain ``Memory`` hands its blocks only the messages that overflow short-term memory, so a
    short session would store nothing. This subclass also hands every message put into it to
    its writing :class:`~llama_index.memory.memvault.MemvaultMemoryBlock` as soon as the turn is
    finished (an assistant message is put), so what the user said is in the store when the
    session ends. Call :meth:`flush` to store a turn left without a reply. An extractor whose
    reply cannot be parsed never fails the turn (memvault stores the user's statements then).

    The writing blocks are those named in :attr:`write_through_blocks`, by default the first
    memvault block only, so a second memvault block (say, an organisation's memory next to the
    user's) is read but never handed the user's words. Give writing blocks
    ``accept_short_term_memory=False`` (as :func:`memvault_memory` does) so overflow does not
    hand them the same messages a second time.

    Everything else (arguments, ``from_defaults``, token budget, chat store) is ``Memory``'s.
    ``get(input=ChatMessage(...))`` recalls for that message's text too (a plain ``Memory``
    only shows blocks a ``str`` input).

    Attributes:
        write_through_blocks: Names of the memvault blocks finished turns are written to;
            ``None`` (default): the first memvault block in ``memory_blocks``.
    """

    write_through_blocks: list[str] | None = Field(
        default=None,
        description="Names of the memvault blocks finished turns are written to; None: the "
        "first memvault block.",
    )
    _pending: list[ChatMessage] = PrivateAttr(default_factory=list)

    @classmethod
    def class_name(cls) -> str:
        """Name used when LlamaIndex serialises the memory."""
        return "MemvaultMemory"

    async def aput(self, message: ChatMessage) -> None:
        """Add a message (``Memory.aput``), then store the turn if this message finishes it."""
        await super().aput(message)
        await self._write_through([message])

    async def aput_messages(self, messages: list[ChatMessage]) -> None:
        """Add messages (``Memory.aput_messages``), then store the turn if they finish it."""
        await super().aput_messages(messages)
        await self._write_through(messages)

    async def _write_through(self, messages: Sequence[ChatMessage]) -> None:
        # Copies: BaseMemoryBlock.aput writes the session id into the messages it is given.
        self._pending.extend(message.model_copy(deep=True) for message in messages)
        if messages and messages[-1].role == MessageRole.ASSISTANT:
            await self.aflush()

    def writing_blocks(self) -> list[MemvaultMemoryBlock]:
        """The memvault blocks finished turns are written to (see :attr:`write_through_blocks`).

        Returns:
            The blocks, in ``memory_blocks`` order.
        """
        blocks = [b for b in self.memory_blocks if isinstance(b, MemvaultMemoryBlock)]
        if self.write_through_blocks is None:
            return blocks[:1]
        return [b for b in blocks if b.name in self.write_through_blocks]

    async def aflush(self) -> None:
        """Store the messages put since the last finished turn in the writing blocks."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        await asyncio.gather(
            *(block.aput(pending, session_id=self.session_id) for block in self.writing_blocks())
        )

    def flush(self) -> None:
        """Sync form of :meth:`aflush`."""
        asyncio_run(self.aflush())

    async def aget(
        self, input: str | ChatMessage | None = None, **block_kwargs: Any
    ) -> list[ChatMessage]:
        """Chat history with the memory blocks inserted (``Memory.aget``).

        Args:
            input: The new user input, not yet in the history; a ``ChatMessage`` is read as its
                text so the blocks see it.
            **block_kwargs: Passed on to the blocks.

        Returns:
            The messages to send the model.
        """
        if isinstance(input, ChatMessage):
            input = input.content or None
        return await super().aget(input=input, **block_kwargs)

    async def areset(self, status: Any = None) -> None:
        """Forget the short-term history (``Memory.areset``); long-term memories stay."""
        self._pending = []
        await super().areset(status=status)


def memvault_memory(
    memory_or_store: AgentMemory | MemoryStore,
    *,
    user_id: str | None = None,
    session_id: str | None = None,
    namespace: Sequence[str] = NOT_GIVEN,
    k: int = NOT_GIVEN,
    filter: dict[str, Any] | None = NOT_GIVEN,
    extractor: Any = NOT_GIVEN,
    write_through: bool = True,
    memory_blocks: Sequence[BaseMemoryBlock[Any]] = (),
    **memory_kwargs: Any,
) -> Memory:
    """Build a LlamaIndex ``Memory`` with a :class:`MemvaultMemoryBlock` in it, for any engine.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped in one with ``namespace``, ``k``, ``filter`` and ``extractor``.
        user_id: Fills ``{user_id}`` in the namespace template.
        session_id: The conversation's id (short-term history key; fills ``{session_id}``;
            recorded on stored memories); default a new UUID.
        namespace: Namespace template (store only); default ``("users", "{user_id}")``.
        k: Most memories recalled per turn, 1 to 1000 (store only); default 5.
        filter: Metadata filter for recall (store only).
        extractor: A :class:`memvault.FactExtractor` (store only): store the facts it draws
            instead of the user's statements.
        write_through: ``True`` (default): a :class:`MemvaultMemory` storing every finished
            turn. ``False``: a plain ``Memory`` storing only what overflows short-term memory.
        memory_blocks: More blocks to put after the memvault block. Memvault blocks among them
            are read, never written through; give them ``accept_short_term_memory=False`` so
            overflow does not write to them either.
        **memory_kwargs: Passed to ``Memory.from_defaults``, e.g. ``token_limit=4000`` or
            ``chat_store=...``.

    Returns:
        The memory; its memvault block is ``memory.memory_blocks[0]``.

    Raises:
        InvalidArgumentError, InvalidFilterError, InvalidNamespaceError: As
            :class:`MemvaultMemoryBlock` raises them.
    """
    block = MemvaultMemoryBlock(
        memory_or_store,
        user_id=user_id,
        namespace=namespace,
        k=k,
        filter=filter,
        extractor=extractor,
        accept_short_term_memory=not write_through,
    )
    if not write_through:
        return Memory.from_defaults(
            session_id=session_id, memory_blocks=[block, *memory_blocks], **memory_kwargs
        )
    memory = MemvaultMemory.from_defaults(
        session_id=session_id, memory_blocks=[block, *memory_blocks], **memory_kwargs
    )
    memory.write_through_blocks = [block.name]
    return memory
