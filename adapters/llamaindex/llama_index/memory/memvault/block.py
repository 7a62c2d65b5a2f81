"""The memvault memory block for ``llama_index.core.memory.Memory``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.bridge.pydantic import Field
from llama_index.core.memory.memory import BaseMemoryBlock
from llama_index.core.utils import get_tokenizer
from llama_index.memory.memvault.messages import (
    chat_messages,
    latest_user_text,
    message_text,
    to_openai_messages,
)

from memvault import AgentMemory, InvalidArgumentError, MemoryScope, MemoryStore
from memvault.arguments import NOT_GIVEN, check_k
from memvault.config import DEFAULT_NAMESPACE
from memvault.errors import InvalidNamespaceError
from memvault.namespace import check_template_value, template_fields

__all__ = ["DEFAULT_NAMESPACE", "MemvaultMemoryBlock", "agent_memory"]


def agent_memory(
    memory_or_store: AgentMemory | MemoryStore,
    *,
    similarity_top_k: int = NOT_GIVEN,
    **options: Any,
) -> AgentMemory:
    """:meth:`memvault.AgentMemory.of` with LlamaIndex's name for ``k``.

    Every part of this package calls the number of memories recalled ``similarity_top_k``, as
    LlamaIndex's retrievers and ``VectorMemoryBlock`` do; it is the memory's ``k``.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, used as it is, or a
            :class:`memvault.MemoryStore`, wrapped in one with the options.
        similarity_top_k: Most memories recalled per query, 1 to 1000 (store only); default 5.
        **options: Other :class:`memvault.AgentMemory` arguments (``namespace``, ``filter``,
            ``extractor``, ``reconciler``, ``header``, ``name``, ``background``);
            :data:`memvault.arguments.NOT_GIVEN` ones are left out.

    Returns:
        The memory.

    Raises:
        InvalidArgumentError: If ``similarity_top_k`` is out of range or comes with an
            ``AgentMemory``, or as :meth:`memvault.AgentMemory.of` raises.
        InvalidNamespaceError, InvalidFilterError: On a bad ``namespace`` or ``filter``.
    """
    if similarity_top_k is not NOT_GIVEN:
        if isinstance(memory_or_store, AgentMemory):
            raise InvalidArgumentError(
                "similarity_top_k cannot be given with an AgentMemory, which holds its own: "
                "set k on the AgentMemory, or pass a MemoryStore instead"
            )
        check_k(similarity_top_k, "similarity_top_k")
    return AgentMemory.of(memory_or_store, k=similarity_top_k, **options)


class MemvaultMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory from memvault, as a block of a LlamaIndex ``Memory``.

    On every ``Memory.get``/``aget`` the block recalls memories for the latest user message
    (:meth:`memvault.MemoryScope.context`), leaving out those that repeat a message already in
    the history, and returns memvault's fenced block (within the memory's ``max_memory_chars``
    and ``max_block_chars``, see :meth:`memvault.AgentMemory.render`), which ``Memory`` puts
    into the system message inside ``<memory><NAME>...</NAME></memory>``. The memories' texts
    are escaped so
    that none can close those tags or fill a template variable of the engine's prompt
    (``{context_str}``). Messages given to the block (``Memory`` hands over those it flushes
    out of short-term memory, :class:`~llama_index.memory.memvault.MemvaultMemory` every
    finished turn) are stored with :meth:`memvault.MemoryScope.save_turns`: the user's
    statements, each with a ``context`` of the date and the messages around it (as an ingested
    conversation's turns have), or with an extractor the facts it draws; questions and requests
    are not stored.

    The scope is the memory's namespace template filled with ``user_id`` and the ``Memory``'s
    ``session_id``: ``("users", "{user_id}")`` shares memories across a user's sessions,
    ``("sessions", "{session_id}")`` keeps them per session.

    Args:
        memory_or_store: A :class:`memvault.AgentMemory`, or a :class:`memvault.MemoryStore`
            wrapped in one with the options below.
        user_id: Fills ``{user_id}`` in the namespace template: a non-empty str, or ``None``
            for a template without it.
        namespace: Namespace template (store only); default ``("users", "{user_id}")``.
        similarity_top_k: Most memories recalled per turn, 1 to 1000 (store only); default 5.
        filter: Metadata filter for recall (store only; see :mod:`memvault.filters`).
        extractor: A :class:`memvault.FactExtractor` (store only); turns are then stored as the
            facts it draws (one LLM call per put).
        reconciler: A :class:`memvault.Reconciler` (store only): the drawn facts then update,
            delete or confirm the most similar stored memories (one more LLM call, when any is
            similar).
        header: Text before the fence (store only); default
            :data:`memvault.context.DEFAULT_MEMORY_HEADER`.
        name: Block name, the tag ``Memory`` wraps the block in; default the memory's ``name``
            (``"memvault"`` unless set), so blocks of differently named memories can share one
            ``Memory``. With a store, the wrapping ``AgentMemory`` gets this name too.
        priority: ``Memory`` truncation priority: ``1`` (default) lets a tight token budget trim
            this block's least relevant memories (:meth:`atruncate`) while chat history stays
            whole; ``0`` never trims.
        accept_short_term_memory: Whether messages flushed out of short-term memory are stored.
        background: With a store: ``True`` stores turns on the memory's worker thread, so
            a put does not wait for extraction (see :mod:`memvault.background`); wait for it
            with :meth:`flush` / :meth:`aflush`. Default ``False``. (With an ``AgentMemory``,
            its own ``background`` applies.)

    Raises:
        InvalidArgumentError: If ``memory_or_store`` is neither kind, a store option is given
            with an ``AgentMemory``, or ``similarity_top_k``, ``extractor``, ``name``,
            ``priority`` or ``background`` is invalid.
        InvalidFilterError: If ``filter`` is not a valid memvault filter.
        InvalidNamespaceError: If ``user_id`` is not a non-empty str or ``None``, or the
            template needs a value that is missing (e.g. ``user_id``), so a block without a user
            never reads a shared namespace.
    """

    name: str = Field(default="memvault", description="The block's name.")
    description: str | None = Field(
        default="Long-term memories from memvault recalled for the latest user message.",
        description="What the block holds.",
    )
    priority: int = Field(default=1, description="Truncation priority (0 = never truncate).")
    memory: Any = Field(exclude=True, description="The memvault AgentMemory.")
    user_id: str | None = Field(default=None, description="Fills {user_id} in the template.")

    def __init__(
        self,
        memory_or_store: AgentMemory | MemoryStore,
        *,
        user_id: str | None = None,
        namespace: Sequence[str] = NOT_GIVEN,
        similarity_top_k: int = NOT_GIVEN,
        filter: dict[str, Any] | None = NOT_GIVEN,
        extractor: Any = NOT_GIVEN,
        reconciler: Any = NOT_GIVEN,
        header: str = NOT_GIVEN,
        name: str | None = None,
        priority: int = 1,
        accept_short_term_memory: bool = True,
        background: bool = NOT_GIVEN,
    ) -> None:
        memory = agent_memory(
            memory_or_store,
            background=background,
            namespace=namespace,
            similarity_top_k=similarity_top_k,
            filter=filter,
            extractor=extractor,
            reconciler=reconciler,
            header=header,
            name=NOT_GIVEN if name is None or isinstance(memory_or_store, AgentMemory) else name,
        )
        if isinstance(priority, bool) or not isinstance(priority, int) or priority < 0:
            raise InvalidArgumentError(
                f"priority must be an int >= 0 (0 = never truncate), got {priority!r}"
            )
        if user_id is not None:
            check_template_value("user_id", user_id)
        elif any("user_id" in template_fields(segment) for segment in memory.namespace):
            raise InvalidNamespaceError(
                f"namespace template {tuple(memory.namespace)!r} needs 'user_id': pass "
                "user_id=, the user whose memories the block holds (e.g. "
                'memvault_memory(store, user_id="alice"))'
            )
        # Fail now, not at the first turn, on a template value that is not given.
        memory.scope({"user_id": user_id, "session_id": "session"})
        super().__init__(
            memory=memory,
            user_id=user_id,
            name=memory.name if name is None else name,
            priority=priority,
            accept_short_term_memory=accept_short_term_memory,
        )

    def scope(self, session_id: str | None) -> MemoryScope:
        """The block's memory resolved for one session.

        Args:
            session_id: The ``Memory``'s session id.

        Returns:
            The :class:`memvault.MemoryScope`.

        Raises:
            InvalidNamespaceError: If the template needs ``session_id`` and it is ``None``.
        """
        return self.memory.scope({"user_id": self.user_id, "session_id": session_id})

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every turn this block's memory stores in the background is stored.

        :meth:`memvault.AgentMemory.flush`; returns at once without ``background=True``.

        Args:
            timeout: Most seconds to wait (>= 0); ``None`` (default) waits until done.

        Returns:
            ``True`` if those turns are stored, ``False`` if the timeout came first.

        Raises:
            InvalidArgumentError: If ``timeout`` is not ``None`` or seconds >= 0.
        """
        return bool(self.memory.flush(timeout))

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async form of :meth:`flush`: the same arguments, result and errors.

        The event loop never blocks while it waits.
        """
        return bool(await self.memory.aflush(timeout))

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """Recall memories for the latest user message (``BaseMemoryBlock._aget``).

        Args:
            messages: The chat history ``Memory`` passes, with the new input appended.
            **block_kwargs: ``session_id`` (from ``Memory``); other entries are ignored.

        Returns:
            The fenced memory block, or ``""`` when there is no user text or nothing recalled.

        Raises:
            InvalidArgumentError: If ``messages`` is not a list of ``ChatMessage``.
            InvalidNamespaceError: If the template needs a ``session_id`` and none was passed.
        """
        messages = None if messages is None else chat_messages(messages)
        query = latest_user_text(messages)
        if not query:
            return ""
        said = [message_text(message) for message in messages or []]
        scope = self.scope(block_kwargs.get("session_id"))
        return await scope.acontext(query, exclude=[text for text in said if text])

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Store a turn with :meth:`memvault.MemoryScope.save_turns` (``BaseMemoryBlock._aput``).

        Args:
            messages: Messages, oldest first; ``BaseMemoryBlock.aput`` has put the session id
                into each one's ``additional_kwargs["session_id"]``.

        Raises:
            InvalidArgumentError: If ``messages`` is not a list of ``ChatMessage``.
        """
        messages = chat_messages(messages)
        session_id = next(
            (
                m.additional_kwargs["session_id"]
                for m in messages
                if m.additional_kwargs.get("session_id") is not None
            ),
            None,
        )
        chat = to_openai_messages(messages)
        if chat:
            await self.scope(session_id).asave_turns(chat)

    async def atruncate(self, content: Any, tokens_to_truncate: int) -> Any:
        """Drop the least relevant memories until about ``tokens_to_truncate`` tokens are freed.

        Overrides ``BaseMemoryBlock.atruncate`` (which drops the whole block) so that a tight
        ``Memory`` token budget keeps the most relevant memories; chat history is never
        touched here. At least ``tokens_to_truncate`` tokens are freed, counted on the whole
        text with LlamaIndex's global tokenizer, as ``Memory`` counts them by default.

        ``Memory`` asks every block with a priority to truncate, handing it what its ``aget``
        returned, or ``[]`` when it returned nothing (say, a new user sending a message longer
        than the token budget). Every content type a block may hold is taken: a ``str`` (what
        this block returns), a list of content blocks or a list of chat messages (what a
        subclass may return), each trimmed when its text is one memory block and returned in
        the same shape; anything else, ``[]`` included, is dropped whole.

        Args:
            content: What :meth:`_aget` returned, or ``[]``.
            tokens_to_truncate: Tokens ``Memory`` asks to free.

        Returns:
            The content with its last memory lines removed, or ``None`` when no memory is left
            or ``content`` holds no memory block.
        """
        if isinstance(content, str):
            return _trim(content, tokens_to_truncate)
        if not isinstance(content, list) or not content:
            return None
        if all(isinstance(part, TextBlock) for part in content):
            trimmed = _trim("\n".join(part.text for part in content), tokens_to_truncate)
            return None if trimmed is None else [TextBlock(text=trimmed)]
        if len(content) == 1 and isinstance(content[0], ChatMessage):
            trimmed = _trim(message_text(content[0]), tokens_to_truncate)
            return None if trimmed is None else [ChatMessage(role=content[0].role, content=trimmed)]
        return None


def _trim(content: str, tokens_to_truncate: int) -> str | None:
    """Remove a memory block's last memory lines until ``tokens_to_truncate`` tokens are freed.

    Args:
        content: A memory block as :meth:`memvault.AgentMemory.render` writes it.
        tokens_to_truncate: Tokens to free, counted with LlamaIndex's global tokenizer.

    Returns:
        The shorter block, or ``None`` when no memory is left or ``content`` is no memory
        block.
    """
    lines = content.split("\n")
    fence = lines[-1]
    # Memory lines are JSON objects; the opening fence is the line just above them.
    opening = len(lines) - 2
    while opening > 0 and lines[opening].startswith("{"):
        opening -= 1
    if not fence.startswith("```") or lines[opening] != f"{fence}memories":
        return None
    kept = lines[opening + 1 : -1]
    count = get_tokenizer()
    # Memory measures what was freed on the whole text and drops the block if it falls
    # short, so estimate by line, then check on the whole and drop more if needed.
    target = len(count(content)) - tokens_to_truncate
    freed = 0
    while kept and freed < tokens_to_truncate:
        freed += len(count(kept.pop())) + 1
    while kept:
        truncated = "\n".join([*lines[: opening + 1], *kept, fence])
        if len(count(truncated)) <= target:
            return truncated
        kept.pop()
    return None
