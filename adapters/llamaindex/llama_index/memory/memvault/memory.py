"""A LlamaIndex ``Memory`` whose finished turns reach memvault, and the one-line way to get one."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from llama_index.core.async_utils import asyncio_run
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.memory import Memory
from llama_index.core.memory.memory import BaseMemoryBlock
from llama_index.memory.memvault.block import MemvaultMemoryBlock
from llama_index.memory.memvault.messages import chat_message, chat_messages, message_text

from memvault import AgentMemory, InvalidArgumentError, MemoryStore
from memvault.arguments import NOT_GIVEN
from memvault.background import check_timeout


class MemvaultMemory(Memory):
    """``llama_index.core.memory.Memory`` that writes each finished turn through to memvault.

    Build it with :meth:`from_defaults` (or :func:`memvault_memory`), which puts a
    :class:`~llama_index.memory.memvault.MemvaultMemoryBlock` first in ``memory_blocks``.

    A plain ``Memory`` hands its blocks only the messages that overflow short-term memory, so a
    short session would store nothing. This subclass also hands every message put into it to
    its writing :class:`~llama_index.memory.memvault.MemvaultMemoryBlock` as soon as the turn is
    finished (an assistant message is put), so what the user said is in the store when the
    session ends. Call :meth:`flush` to store a turn left without a reply. An extractor whose
    reply cannot be parsed never fails the turn (memvault stores the user's statements then).

    With ``background=True`` a finished turn is handed to the memory's worker thread
    (:mod:`memvault.background`): the engine or agent gets its reply without waiting for fact
    extraction, and :meth:`flush` / :meth:`aflush` wait until what was handed over is stored.

    A history given with ``chat_history=`` (``engine.chat(msg, chat_history=[...])``,
    ``agent.run(msg, chat_history=[...], memory=memory)``, both of which call :meth:`aset`, or
    ``from_defaults(chat_history=...)``) is written through too: the messages after the part it
    shares with this session's history so far, so handing the same history back on every call
    stores each message once.

    The writing blocks are those named in :attr:`write_through_blocks`, by default the first
    memvault block only, so a second memvault block (say, an organisation's memory next to the
    user's) is read but never handed the user's words. Give writing blocks
    ``accept_short_term_memory=False`` (as :meth:`from_defaults` does) so overflow does not
    hand them the same messages a second time.

    Everything else (token budget, chat store, ``insert_method``) is ``Memory``'s. The memories
    go into the system message by default; a ``ReActAgent`` without a ``system_prompt`` drops
    that message (it writes its own ReAct header instead), so give its memory
    ``insert_method="user"`` (memories in front of the latest user message) or give the agent a
    ``system_prompt``.
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

    @classmethod
    def from_defaults(  # type: ignore[override]
        cls,
        *,
        store: AgentMemory | MemoryStore | None = None,
        path: str | os.PathLike[str] | None = None,
        user_id: str | None = None,
        session_id: str | None = None,
        chat_history: Sequence[ChatMessage] | None = None,
        namespace: Sequence[str] = NOT_GIVEN,
        similarity_top_k: int = NOT_GIVEN,
        filter: dict[str, Any] | None = NOT_GIVEN,
        extractor: Any = NOT_GIVEN,
        reconciler: Any = NOT_GIVEN,
        write_through: bool = True,
        memory_blocks: Sequence[BaseMemoryBlock[Any]] = (),
        background: bool = NOT_GIVEN,
        **memory_kwargs: Any,
    ) -> MemvaultMemory:
        """Build the memory with a :class:`MemvaultMemoryBlock` first in ``memory_blocks``.

        Exactly one of ``store`` and ``path`` is required: without either there would be no
        long-term memory, so this refuses rather than build a plain ``Memory`` (or write to a
        folder nobody chose). ``store=MemoryStore()`` uses memvault's per-user data folder.

        Args:
            store: A :class:`memvault.MemoryStore`, wrapped in an ``AgentMemory`` with
                ``namespace``, ``similarity_top_k``, ``filter`` and ``extractor``; or a
                :class:`memvault.AgentMemory` (the policy: namespace template, ``k``, filter,
                extractor, name), used as it is.
            path: Instead of ``store``: a folder, opened as ``MemoryStore(path)`` (on-disk
                Chroma, offline MiniLM embeddings; created if missing). Open the store yourself
                to choose its embedder or share it.
            user_id: Fills ``{user_id}`` in the namespace template.
            session_id: The conversation's id (short-term history key; fills ``{session_id}``;
                recorded on stored memories); default a new UUID.
            chat_history: Messages to start the short-term history with, oldest first;
                written through like any finished turn.
            namespace: Namespace template (store or path only); default
                ``("users", "{user_id}")``.
            similarity_top_k: Most memories recalled per turn, 1 to 1000 (store or path only);
                default 5.
            filter: Metadata filter for recall (store or path only; see
                :mod:`memvault.filters`).
            extractor: A :class:`memvault.FactExtractor` (store or path only): store the facts
                it draws instead of the user's statements.
            reconciler: A :class:`memvault.Reconciler` (store or path only): the drawn facts
                then update, delete or confirm the most similar stored memories.
            write_through: ``True`` (default): store every finished turn. ``False``: store
                only what overflows short-term memory, as a plain ``Memory`` does.
            memory_blocks: More blocks to put after the memvault block. Memvault blocks among
                them are read, never written through; give them
                ``accept_short_term_memory=False`` so overflow does not write to them either.
            background: Store or path only: ``True`` stores each finished turn on the memory's
                worker thread, off the reply path (see :meth:`flush`); default ``False``.
            **memory_kwargs: Passed to ``Memory.from_defaults``, e.g. ``token_limit=4000``,
                ``insert_method="user"`` or ``chat_store=...``.

        Returns:
            The memory; its memvault block is ``memory.memory_blocks[0]``.

        Raises:
            InvalidArgumentError: If neither or both of ``store`` and ``path`` are given,
                ``path`` is not a folder path, ``chat_history`` is not a list of
                ``ChatMessage``, or as :class:`MemvaultMemoryBlock` raises.
            InvalidFilterError, InvalidNamespaceError: As :class:`MemvaultMemoryBlock` raises
                them.
        """
        if (store is None) == (path is None):
            raise InvalidArgumentError(
                "MemvaultMemory.from_defaults needs either store= (a memvault MemoryStore or "
                "AgentMemory) or path= (a store folder), not "
                + ("both" if store is not None else "neither")
                + "; store=MemoryStore() uses memvault's per-user data folder"
            )
        if path is not None:
            if not isinstance(path, (str, os.PathLike)):
                raise InvalidArgumentError(
                    f"path must be a folder path (str or pathlib.Path), got {type(path).__name__}"
                )
            store = MemoryStore(Path(path))
        assert store is not None  # store or path is given (checked above)
        block = MemvaultMemoryBlock(
            store,
            user_id=user_id,
            namespace=namespace,
            similarity_top_k=similarity_top_k,
            filter=filter,
            extractor=extractor,
            reconciler=reconciler,
            accept_short_term_memory=not write_through,
            background=background,
        )
        # Memory.from_defaults builds cls(...), though its return type says Memory.
        memory: MemvaultMemory = super().from_defaults(  # type: ignore[assignment]
            session_id=session_id, memory_blocks=[block, *memory_blocks], **memory_kwargs
        )
        memory.write_through_blocks = [block.name] if write_through else []
        if chat_history is not None:
            history = chat_messages(chat_history, "chat_history")
            if history:
                memory.set(history)
        return memory

    async def aput(self, message: ChatMessage) -> None:
        """Add a message (``Memory.aput``), then store the turn if this message finishes it.

        Raises:
            InvalidArgumentError: If ``message`` is not a ``ChatMessage``.
        """
        chat_message(message)
        await super().aput(message)
        await self._write_through([message])

    async def aput_messages(self, messages: list[ChatMessage]) -> None:
        """Add messages (``Memory.aput_messages``), then store the turn if they finish it.

        Raises:
            InvalidArgumentError: If ``messages`` is not a list of ``ChatMessage``.
        """
        messages = chat_messages(messages)
        await super().aput_messages(messages)
        await self._write_through(messages)

    async def aset(self, messages: list[ChatMessage]) -> None:
        """Replace the short-term history (``Memory.aset``) and store what is new in it.

        Engines and agents call this with the ``chat_history=`` they are given. The messages
        after the part the new history shares with this session's history so far are
        written through like put messages (at once if the last is an assistant message).

        Args:
            messages: The history, oldest first.

        Raises:
            InvalidArgumentError: If ``messages`` is not a list of ``ChatMessage``.
        """
        messages = chat_messages(messages)
        before = [_said(message) for message in await self.aget_all()]
        shared = 0
        while (
            shared < min(len(before), len(messages)) and _said(messages[shared]) == before[shared]
        ):
            shared += 1
        await super().aset(messages)
        await self._write_through(messages[shared:])

    async def _write_through(self, messages: Sequence[ChatMessage]) -> None:
        # Copies: BaseMemoryBlock.aput writes the session id into the messages it is given.
        self._pending.extend(message.model_copy(deep=True) for message in messages)
        if messages and messages[-1].role == MessageRole.ASSISTANT:
            await self._store_pending()

    def writing_blocks(self) -> list[MemvaultMemoryBlock]:
        """The memvault blocks finished turns are written to (see :attr:`write_through_blocks`).

        Returns:
            The blocks, in ``memory_blocks`` order.
        """
        blocks = [b for b in self.memory_blocks if isinstance(b, MemvaultMemoryBlock)]
        if self.write_through_blocks is None:
            return blocks[:1]
        return [b for b in blocks if b.name in self.write_through_blocks]

    async def _store_pending(self) -> None:
        """Store the messages put since the last finished turn in the writing blocks."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        await asyncio.gather(
            *(block.aput(pending, session_id=self.session_id) for block in self.writing_blocks())
        )

    async def aflush(self, timeout: float | None = None) -> bool:
        """Store what is not stored yet, and wait for it.

        Stores the messages put since the last finished turn (a turn left without a reply) in
        the writing blocks, then, for the memories of its memvault blocks with
        ``background=True``, waits until every turn handed to their worker threads is stored.

        Args:
            timeout: Most seconds to wait for the background workers (>= 0); ``None``
                (default) waits until done.

        Returns:
            ``True`` when everything is stored, ``False`` if the timeout came first.

        Raises:
            InvalidArgumentError: If ``timeout`` is not ``None`` or seconds >= 0.
        """
        timeout = check_timeout(timeout)
        await self._store_pending()
        deadline = None if timeout is None else time.monotonic() + timeout
        done = True
        blocks = [b for b in self.memory_blocks if isinstance(b, MemvaultMemoryBlock)]
        memories = {id(b.memory): b for b in blocks}.values()  # overflow writes count too
        for block in memories:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            done = await block.aflush(left) and done
        return done

    def flush(self, timeout: float | None = None) -> bool:
        """Sync form of :meth:`aflush`: the same arguments, result and errors."""
        return asyncio_run(self.aflush(timeout))

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


def _said(message: ChatMessage) -> tuple[str, str]:
    return MessageRole(message.role).value, message_text(message)


def memvault_memory(
    memory_or_store: AgentMemory | MemoryStore,
    *,
    user_id: str | None = None,
    session_id: str | None = None,
    **options: Any,
) -> MemvaultMemory:
    """Build a :class:`MemvaultMemory` for any engine or agent: ``from_defaults(store=...)``.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            (``MemvaultMemory.from_defaults``'s ``store``).
        user_id: Fills ``{user_id}`` in the namespace template.
        session_id: The conversation's id; default a new UUID.
        **options: The other arguments of :meth:`MemvaultMemory.from_defaults`
            (``similarity_top_k``, ``namespace``, ``filter``, ``extractor``, ``reconciler``,
            ``write_through``, ``memory_blocks``, ``chat_history``, ``background``) and of
            ``Memory.from_defaults`` (``token_limit``, ``insert_method``, ...).

    Returns:
        The memory; its memvault block is ``memory.memory_blocks[0]``.

    Raises:
        InvalidArgumentError, InvalidFilterError, InvalidNamespaceError: As
            :meth:`MemvaultMemory.from_defaults` raises them.
    """
    return MemvaultMemory.from_defaults(
        store=memory_or_store, user_id=user_id, session_id=session_id, **options
    )
