"""A declarative memory configuration: a plain dict of an :class:`~memvault.AgentMemory`'s settings.

:meth:`AgentMemory.from_config <memvault.AgentMemory.from_config>` builds the memory from it;
this module holds the settings, their defaults and their checks.

The same dict (from JSON, YAML or code) builds the LangChain middleware and tools and the
LlamaIndex memory and tools, since each adapter takes the :class:`~memvault.AgentMemory` it
builds::

    {"path": "./memories", "namespace": ["users", "{user_id}"], "k": 5,
     "max_memory_chars": 2000, "max_block_chars": 12000, "similarity_threshold": null,
     "extraction": false, "reconciliation": false, "background": false,
     "inject_quarantined": false,
     "trust": ["user", "tool", "extractor", "api", "import"]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memvault.arguments import MAX_COUNT, MAX_K
from memvault.backends.memory import InMemoryBackend
from memvault.context import (
    DEFAULT_MAX_BLOCK_CHARS,
    DEFAULT_MAX_MEMORY_CHARS,
    DEFAULT_MEMORY_HEADER,
)
from memvault.errors import InvalidArgumentError, validation_problem
from memvault.model import ORIGINS, Namespace, Origin
from memvault.provenance import DEFAULT_TRUST
from memvault.store import MemoryStore
from memvault.truncation import MIN_BUDGET_CHARS

DEFAULT_NAMESPACE: Namespace = ("users", "{user_id}")
"""Default namespace template: one namespace per user, shared by all of that user's sessions."""

DEFAULT_SIMILARITY_THRESHOLD: float | None = None
"""Default ``similarity_threshold``: off, so only memories with equal keys merge. On labelled
pairs with the default embedder no cosine threshold added merges at high precision
(``bench/similarity_threshold.py``; figures in ``bench/README.md``); measure again before
setting one for another embedder (see :func:`memvault.statements.near_duplicate`)."""

IN_MEMORY = ":memory:"
"""``path`` value for a store kept in the process (:class:`~memvault.InMemoryBackend`)."""


class MemoryConfig(BaseModel):
    """Settings of an :class:`~memvault.AgentMemory`, JSON- and YAML-serialisable.

    ``MemoryConfig.parse(d).model_dump(mode="json")`` gives ``d`` back with defaults filled.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str | None = Field(
        default=None,
        description="Store folder (embedded Chroma); None: $MEMVAULT_PATH or the per-user data "
        "folder; ':memory:': kept in the process.",
    )
    embedder: str = Field(
        default="minilm",
        description="'minilm' (offline all-MiniLM-L6-v2), 'hashing:<dim>' (tests only), or "
        "'<provider>:<model>' through LangChain's init_embeddings.",
    )
    namespace: tuple[str, ...] = Field(
        default=DEFAULT_NAMESPACE, description="Namespace template, e.g. ['users', '{user_id}']."
    )
    k: int = Field(default=5, ge=1, le=MAX_K, description="Most memories recalled per query.")
    header: str = Field(default=DEFAULT_MEMORY_HEADER, description="Text before the fence.")
    max_memory_chars: int = Field(
        default=DEFAULT_MAX_MEMORY_CHARS,
        ge=MIN_BUDGET_CHARS,
        le=MAX_COUNT,
        description="Most characters of one memory's text in the injected block; a longer "
        "one is cut with a marker '… [truncated, N more characters]'.",
    )
    max_block_chars: int = Field(
        default=DEFAULT_MAX_BLOCK_CHARS,
        ge=MIN_BUDGET_CHARS,
        le=MAX_COUNT,
        description="Most characters of the injected block's memory lines (between its "
        "fences); memories are added best first until it is full.",
    )
    similarity_threshold: float | None = Field(
        default=DEFAULT_SIMILARITY_THRESHOLD,
        ge=-1.0,
        le=1.0,
        description="Cosine similarity from which near-duplicates merge; None: equal keys only.",
    )
    extraction: bool = Field(
        default=False, description="Store facts an LLM extracts instead of the user's words."
    )
    reconciliation: bool = Field(
        default=False,
        description="Let one more LLM call decide whether extracted facts add to, update, "
        "delete or repeat the most similar stored memories.",
    )
    ttl: float | None = Field(
        default=None, gt=0, description="Seconds until memories expire; None: never."
    )
    name: str = Field(default="memvault", description="The memory's name (an identifier).")
    background: bool = Field(
        default=False,
        description="Store turns on a worker thread, off the reply path (see memvault.background).",
    )
    inject_quarantined: bool = Field(
        default=False,
        description="Also recall memories the poisoning firewall holds because they read as "
        "instructions to the model (memvault.firewall); False: they are stored, listed by "
        "'memvault list --quarantined' for review, and never put in a prompt.",
    )
    trust: tuple[Origin, ...] = Field(
        default=tuple(o for o in ORIGINS if o in DEFAULT_TRUST),
        description="The origins whose memories may be recalled into a prompt: of 'user', "
        "'assistant', 'tool', 'extractor', 'api', 'import'; default all but 'assistant'.",
    )

    @field_validator("trust")
    @classmethod
    def _trust(cls, trust: tuple[Origin, ...]) -> tuple[Origin, ...]:
        """The origins once each, in :data:`~memvault.model.ORIGINS` order (a set's dump)."""
        return tuple(origin for origin in ORIGINS if origin in trust)

    def __init__(self, **fields: Any) -> None:
        """Validate the fields (see the class attributes).

        Raises:
            InvalidArgumentError: Naming the first invalid or unknown field.
        """
        try:
            super().__init__(**fields)
        except ValidationError as error:
            raise InvalidArgumentError(
                f"memory config field {validation_problem(error, 'config')}"
            ) from None

    @classmethod
    def parse(cls, config: Mapping[str, Any] | MemoryConfig) -> MemoryConfig:
        """Validate a plain dict (or pass a config through).

        Args:
            config: A :class:`MemoryConfig` or a mapping of its fields.

        Returns:
            The config.

        Raises:
            InvalidArgumentError: Naming the first invalid or unknown field.
        """
        if isinstance(config, MemoryConfig):
            return config
        if not isinstance(config, Mapping):
            raise InvalidArgumentError(
                f"config must be a dict of MemoryConfig fields, got {type(config).__name__}"
            )
        names = [name for name in config if not isinstance(name, str)]
        if names:
            raise InvalidArgumentError(
                f"memory config field names must be strings, got {names[0]!r}"
            )
        return cls(**config)

    def open_store(self) -> MemoryStore:
        """Open the store at :attr:`path` with :attr:`embedder`.

        Returns:
            A :class:`~memvault.MemoryStore`; ``path=":memory:"`` keeps it in the process
            (:class:`~memvault.InMemoryBackend`).

        Raises:
            InvalidArgumentError: On an unknown embedder.
            EmbedderUnavailableError: If the embedder cannot be loaded (a missing model or
                package).
        """
        if self.path == IN_MEMORY:
            return MemoryStore(embedder=self.embedder, backend=InMemoryBackend())
        return MemoryStore(self.path, embedder=self.embedder)
