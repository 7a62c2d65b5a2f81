"""The bad inputs both adapters (LangChain and LlamaIndex) must refuse alike: one list of named bad
values per kind of argument, each with the memvault error it must raise.

Each adapter's bad-input test keeps only its entry points, an :class:`EntryPoint` per way its parts
take an argument of a kind (how to call its remember / recall / forget tools, its retriever, its
middleware or memory block with the value), and parametrises them over the lists here with
:func:`cases`; every case then asserts the error and that the store's export is unchanged.

Where a framework owns the layer that checks an argument (LangChain validates a tool's arguments
against its ``args_schema`` and the retriever's fields with pydantic), the entry point names the
framework's documented error (``schema_error``) and the values marked ``breaks_schema`` expect it
instead.

Every entry point takes every value of its kinds (or those its ``only`` names): none is left
out for an adapter that mishandles it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest

from memvault import InvalidArgumentError, MemvaultError
from memvault.errors import InvalidFilterError, InvalidNamespaceError
from tests.core.bad_inputs import BIG, DEEP

ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()
"""Leave the argument out (e.g. a run without a user id); each entry point says how."""


@dataclass(frozen=True)
class Bad:
    """One bad value of a kind of argument.

    Attributes:
        id: Its name, the last words of the test ids.
        value: The value.
        error: The memvault error every entry point of the kind must raise for it.
        breaks_schema: A pydantic schema refuses it: a plain argument's value is not of the
            argument's type; a :class:`ToolCall`'s arguments break the tool's ``args_schema``
            (:data:`memvault.memory_tools.MEMORY_TOOLS`). An entry point whose framework checks
            that schema first expects its ``schema_error`` instead of ``error``.
    """

    id: str
    value: Any
    error: type[MemvaultError]
    breaks_schema: bool = False


@dataclass(frozen=True)
class EntryPoint:
    """One way an adapter takes an argument of a kind.

    Attributes:
        id: Its name, the first words of the test ids (``""``: the bad value's id alone).
        call: ``call(context, value)`` calls the adapter with the bad value (the context is
            the adapter test's, holding the store).
        schema_error: The framework's validation error, documented by the adapter, that
            values marked ``breaks_schema`` raise here; ``None`` when memvault checks them all.
        only: The ids of the values this entry point takes (e.g. the options a part has);
            default all.
    """

    id: str
    call: Callable[[Any, Any], object]
    schema_error: type[Exception] | None = None
    only: frozenset[str] | None = None

    def expected(self, bad: Bad) -> type[Exception]:
        """The error ``bad`` must raise through this entry point."""
        if self.schema_error is not None and bad.breaks_schema:
            return self.schema_error
        return bad.error


def cases(values: list[Bad], *entry_points: EntryPoint) -> list:
    """Every entry point called with every bad value it takes, as ``(bad_call, expected)``
    params: ``bad_call(context)`` makes the call, ``expected`` is the error it must raise."""
    ids = {bad.id for bad in values}
    params = []
    for entry in entry_points:
        unknown = set(entry.only or ()) - ids
        assert not unknown, f"{entry.id!r} names values the list lacks: {sorted(unknown)}"
        for bad in values:
            if entry.only is not None and bad.id not in entry.only:
                continue
            params.append(
                pytest.param(
                    lambda context, call=entry.call, value=bad.value: call(context, value),
                    entry.expected(bad),
                    id=f"{entry.id} {bad.id}".strip(),
                )
            )
    return params


# -- the run's user id (fills the default namespace template ("users", "{user_id}")) ---------
USER_IDS = [
    Bad("absent", ABSENT, InvalidNamespaceError),
    Bad("int", 5, InvalidNamespaceError, breaks_schema=True),
    Bad("empty", "", InvalidNamespaceError),
    Bad("300 chars", "a" * 300, InvalidNamespaceError),
    Bad("lone surrogate", "a\udc00", InvalidNamespaceError),
]

# -- a namespace (template) given to a part ---------------------------------------------------
NAMESPACES = [
    Bad("str", "users", InvalidNamespaceError, breaks_schema=True),
    Bad("5,000 segments", ("a",) * 5000, InvalidNamespaceError),
    Bad("empty segment", ("users", ""), InvalidNamespaceError),
    Bad("int segment", ("users", 5), InvalidNamespaceError, breaks_schema=True),
]

# -- what a part is built on (a MemoryStore or an AgentMemory) ---------------------------------
STORES = [
    Bad("int", 5, InvalidArgumentError, breaks_schema=True),
    Bad("is a path", "./memories", InvalidArgumentError, breaks_schema=True),
    Bad("dict", {"not": "a store"}, InvalidArgumentError, breaks_schema=True),
]

# -- the prefix of the tools' names ------------------------------------------------------------
PREFIXES = [
    Bad("with a space", "org tools", InvalidArgumentError),
    Bad("int", 5, InvalidArgumentError, breaks_schema=True),
]

# -- options a part takes only with a store, given with an AgentMemory (keyword arguments; an
# adapter renames "k" to its own name) ----------------------------------------------------------
WITH_A_MEMORY = [
    Bad("namespace", {"namespace": ("x",)}, InvalidArgumentError),
    Bad("k", {"k": 3}, InvalidArgumentError),
    Bad("filter", {"filter": {}}, InvalidArgumentError),
    Bad("background", {"background": True}, InvalidArgumentError),
]

# -- other options of the memory a part builds (keyword arguments) ----------------------------
OPTIONS = [
    Bad("header int", {"header": 5}, InvalidArgumentError, breaks_schema=True),
    Bad("name with a space", {"name": "my memory"}, InvalidArgumentError),
    Bad("name int", {"name": 5}, InvalidArgumentError, breaks_schema=True),
    Bad("extractor str", {"extractor": "gpt"}, InvalidArgumentError, breaks_schema=True),
    Bad("background str", {"background": "on"}, InvalidArgumentError, breaks_schema=True),
    Bad("background int", {"background": 1}, InvalidArgumentError, breaks_schema=True),
]

# -- how many memories a recall returns (k, similarity_top_k) ---------------------------------
KS = [
    Bad("0", 0, InvalidArgumentError),
    Bad("-1", -1, InvalidArgumentError),
    Bad("10**9", 10**9, InvalidArgumentError),
    Bad("True", True, InvalidArgumentError, breaks_schema=True),
    Bad("NaN", math.nan, InvalidArgumentError, breaks_schema=True),
    Bad("str", "5", InvalidArgumentError, breaks_schema=True),
]

# -- a metadata filter -------------------------------------------------------------------------
FILTERS = [
    Bad("NaN", {"n": math.nan}, InvalidFilterError),
    Bad("big int", {"n": BIG}, InvalidFilterError),
    Bad("$gt big int", {"n": {"$gt": BIG}}, InvalidFilterError),
    Bad("nested 5,000 deep", {"n": DEEP}, InvalidFilterError),
    Bad("int field", {5: 1}, InvalidFilterError, breaks_schema=True),
    Bad("list", ["kind"], InvalidFilterError, breaks_schema=True),
]

# -- a retriever's query -----------------------------------------------------------------------
QUERIES = [
    Bad("lone surrogate", "tea\udc00", InvalidArgumentError),
    Bad("int", 5, InvalidArgumentError, breaks_schema=True),
    Bad("bytes", b"tea", InvalidArgumentError, breaks_schema=True),
    Bad("nested 5,000 deep", DEEP, InvalidArgumentError, breaks_schema=True),
]

# -- the seconds flush / aflush wait -----------------------------------------------------------
TIMEOUTS = [
    Bad("negative", -1, InvalidArgumentError),
    Bad("str", "soon", InvalidArgumentError),
    Bad("numeric str", "1", InvalidArgumentError),
    Bad("infinity", math.inf, InvalidArgumentError),
    Bad("NaN", math.nan, InvalidArgumentError),
    Bad("401-digit int", BIG, InvalidArgumentError),
    Bad("longer than a thread can wait", 1e300, InvalidArgumentError),
]


class ToolCall(NamedTuple):
    """A call of one of the memory tools: its base name and its arguments by name."""

    tool: str
    arguments: dict[str, Any]


def _call(tool: str, id: str, breaks_schema: bool = True, **arguments: Any) -> Bad:
    return Bad(id, ToolCall(tool, arguments), InvalidArgumentError, breaks_schema)


# -- a memory tool's arguments, as a model fills them ------------------------------------------
TOOL_CALLS = [
    _call("remember", "remember blank", False, text="   "),
    _call("remember", "remember without words", False, text="..."),
    _call("remember", "remember empty", text=""),
    _call("remember", "remember lone surrogate", text="I like tea\udc00"),
    _call("remember", "remember text int", text=5),
    _call("remember", "remember text nested 5,000 deep", text=DEEP),
    _call("remember", "remember without text"),
    _call("remember", "remember wrong argument name", txt="tea"),
    _call("recall", "recall limit 0", query="tea", limit=0),
    _call("recall", "recall limit -1", query="tea", limit=-1),
    _call("recall", "recall limit 51", query="tea", limit=51),
    _call("recall", "recall limit 10**9", query="tea", limit=10**9),
    _call("recall", "recall limit NaN", query="tea", limit=math.nan),
    _call("recall", "recall limit str", query="tea", limit="many"),
    _call("recall", "recall limit True", query="tea", limit=True),
    _call("recall", "recall limit numeric str", query="tea", limit="5"),
    _call("recall", "recall limit float", query="tea", limit=5.0),
    _call("recall", "recall lone surrogate", query="tea\udc00"),
    _call("recall", "recall query empty", query=""),
    _call("list_memories", "list limit 0", limit=0),
    _call("list_memories", "list limit 101", limit=101),
    _call("list_memories", "list limit True", limit=True),
    _call("list_memories", "list offset negative", offset=-1),
    _call("list_memories", "list offset numeric str", offset="0"),
    _call("forget", "forget empty", memory=""),
    _call("forget", "forget blank", False, memory="  "),
    _call("forget", "forget int", memory=5),
    _call("forget", "forget lone surrogate", memory="tea\udc00"),
]

# -- remember's input given whole, positionally (a string input is its text) -------------------
REMEMBER_INPUTS = [
    Bad("without words", "...", InvalidArgumentError),
    Bad("int", 5, InvalidArgumentError, breaks_schema=True),
]
