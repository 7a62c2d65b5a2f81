"""The inspector's pages that only read: namespaces, memories, the held ones, search, export.

Each reads the store through :class:`~memvault.MemoryStore`'s public API (its async twins,
so the server's event loop never waits on the store) and renders a template of
:mod:`memvault.inspector.render`. A namespace or memory the store does not hold is an
:class:`~memvault.errors.ItemNotFoundError` (``404``); a bad field an
:class:`~memvault.errors.InvalidArgumentError` (``400``), both answered by
:mod:`memvault.inspector.app`.
"""

from __future__ import annotations

import math
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from memvault.arguments import MAX_COUNT
from memvault.errors import InvalidArgumentError, InvalidNamespaceError, ItemNotFoundError
from memvault.firewall import held_many
from memvault.inspector.forms import query_fields
from memvault.inspector.paths import read_item, read_namespace
from memvault.inspector.render import page
from memvault.items import SCORE_SCALES, MemoryItem
from memvault.model import SEARCH_MODES, Namespace, SearchMode
from memvault.moments import day_text, read_moment
from memvault.namespace import format_namespace_path, parse_namespace_path
from memvault.periods import named_periods
from memvault.review import held_memories
from memvault.store import MemoryStore

PAGE_SIZE = 50
"""Memories on one page of a namespace."""

MAX_PAGE = MAX_COUNT // PAGE_SIZE
"""The highest page number taken (the store skips at most ``MAX_COUNT`` memories)."""

RESULTS = 20
"""Results a search page shows."""

WHY_DEPTH = 100
"""How deep the dense-only and lexical-only searches of a result's "why" look."""


def store_of(request: Request) -> MemoryStore:
    """The store the inspector serves (kept on the app's state)."""
    store: MemoryStore = request.app.state.store
    return store


def form_token_of(request: Request) -> str:
    """The form token every form of the inspector carries."""
    token: str = request.app.state.secrets.form_token
    return token


def html(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page rendered from ``template`` with the form token (for its forms) in its context."""
    body = page(template, form_token=form_token_of(request), **context)
    return HTMLResponse(body, status_code=status)


@dataclass
class Node:
    """One namespace of the tree: its memories, those below it, and its children.

    Attributes:
        namespace: The namespace.
        own: Memories in exactly this namespace.
        total: Memories in it and below it.
        children: The namespaces one segment longer, sorted.
    """

    namespace: Namespace
    own: int = 0
    total: int = 0
    children: list[Node] = field(default_factory=list)


def namespace_tree(counts: dict[Namespace, int]) -> list[Node]:
    """The roots of the tree of namespaces, with counts summed up the tree.

    Args:
        counts: Memories of each namespace, in exactly it (``MemoryStore.stats().namespaces``).

    Returns:
        The first-segment namespaces, each with its children, sorted.
    """
    nodes: dict[Namespace, Node] = {}
    roots: list[Node] = []
    for namespace in sorted(counts):
        for depth in range(1, len(namespace) + 1):
            prefix = namespace[:depth]
            if prefix not in nodes:
                nodes[prefix] = Node(prefix)
                (roots if depth == 1 else nodes[prefix[:-1]].children).append(nodes[prefix])
            nodes[prefix].total += counts[namespace]
        nodes[namespace].own = counts[namespace]
    return roots


@dataclass(frozen=True)
class Listed:
    """A memory as a page lists it: the item, why the firewall holds it, its sources.

    Attributes:
        item: The memory.
        held: Why it is held from prompts (:func:`memvault.firewall.held`), or ``None``.
        sources: The keys of the memories it was drawn from (its value's ``"sources"``, the
            strings of it), empty when it names none.
    """

    item: MemoryItem
    held: str | None
    sources: list[str]

    @classmethod
    def many(cls, items: list[MemoryItem]) -> list[Listed]:
        """The rows of ``items``, screened at once (:func:`memvault.firewall.held_many`).

        Runs the firewall's model: call it in a worker thread (``run_in_threadpool``), never
        on the event loop.
        """
        reasons = held_many([item.value for item in items])
        return [cls(item, reason, _sources(item)) for item, reason in zip(items, reasons)]


def _sources(item: MemoryItem) -> list[str]:
    """The keys of the memories ``item`` was drawn from (its value's ``"sources"``)."""
    sources = item.value.get("sources")
    return [s for s in sources if isinstance(s, str)] if isinstance(sources, list) else []


async def home(request: Request) -> Response:
    """``/``: every namespace that holds memories, as a tree with counts."""
    stats = await store_of(request).astats()
    return html(
        request,
        "namespaces.html",
        roots=namespace_tree(stats.namespaces),
        memories=stats.memories,
        info=stats.info,
    )


async def _count(store: MemoryStore, where: Namespace) -> int:
    """Memories in ``where`` and below it (closed ones included).

    Raises:
        ItemNotFoundError: If there are none (a page of that namespace is a ``404``).
    """
    total = await store.acount(where)
    if total == 0:
        raise ItemNotFoundError(
            f"no memories in namespace {format_namespace_path(where)!r}: pick one on the home page"
        )
    return total


async def namespace(request: Request) -> Response:
    """``/ns/<namespace>?page=N``: a namespace's memories (and those below), newest first."""
    store = store_of(request)
    where = read_namespace(request.scope, "ns")
    number = query_fields(request).count("page", default=1, maximum=MAX_PAGE)
    total = await _count(store, where)
    pages = math.ceil(total / PAGE_SIZE)
    if number > pages:
        raise ItemNotFoundError(
            f"field 'page' is {number}, but namespace {format_namespace_path(where)!r} has "
            f"{pages} page{'s' if pages > 1 else ''} of memories"
        )
    items = await store.asearch(
        where, limit=PAGE_SIZE, offset=(number - 1) * PAGE_SIZE, include_closed=True
    )
    rows = await run_in_threadpool(Listed.many, items)
    return html(
        request, "namespace.html", namespace=where, rows=rows, page=number, pages=pages, total=total
    )


async def _held_page(
    store: MemoryStore, prefix: Namespace, number: int
) -> tuple[list[Listed], bool]:
    """Page ``number`` of the held memories under ``prefix``, and whether more follow.

    Closed memories included; read by :func:`memvault.review.held_memories`.
    """
    found, more = await run_in_threadpool(
        held_memories,
        store,
        prefix,
        limit=PAGE_SIZE,
        offset=(number - 1) * PAGE_SIZE,
        include_closed=True,
    )
    return await run_in_threadpool(Listed.many, found), more


async def quarantined(request: Request) -> Response:
    """``/quarantined?ns=&page=N``: the memories the poisoning firewall holds, with why.

    For review: each is held from prompts (:func:`memvault.firewall.held`: marked by the agent
    layer, or reading as an instruction now). ``ns`` keeps to a namespace and those below it
    (empty: the whole store); a namespace holding no memories at all is a ``404``, as its
    namespace page is.
    """
    store = store_of(request)
    fields = query_fields(request)
    ns_text = fields.text("ns") or ""
    number = fields.count("page", default=1, maximum=MAX_PAGE)
    try:
        prefix = parse_namespace_path(ns_text) if ns_text.strip() else ()
    except InvalidNamespaceError as error:
        raise InvalidNamespaceError(f"field 'ns': {error}") from None
    if prefix:
        await _count(store, prefix)
    rows, more = await _held_page(store, prefix, number)
    if not rows and number > 1:
        raise ItemNotFoundError(
            f"field 'page' is {number}, but fewer than {(number - 1) * PAGE_SIZE + 1} held "
            "memories are listed here: go back to page 1"
        )
    return html(
        request,
        "quarantined.html",
        prefix=prefix,
        rows=rows,
        page=number,
        more=more,
    )


async def item(request: Request) -> Response:
    """``/item/<namespace>/<key>``: a memory, its history as a timeline, edit/forget/erase."""
    store = store_of(request)
    where, key = read_item(request.scope, "item")
    found, entries = await store.aget(where, key), await store.ahistory(where, key)
    if found is None and not entries:
        raise ItemNotFoundError(
            f"no memory {key!r} in namespace {format_namespace_path(where)!r}, and none was "
            "ever written there"
        )
    rows = await run_in_threadpool(Listed.many, [found] if found is not None else [])
    return html(
        request,
        "item.html",
        namespace=where,
        key=key,
        row=rows[0] if rows else None,
        entries=entries,
    )


@dataclass(frozen=True)
class Placing:
    """Where a result ranks in a search of one mode: its rank (from 1) and score.

    Attributes:
        rank: 1 for the first result.
        score: The score that search gave it.
    """

    rank: int
    score: float


async def _placings(
    store: MemoryStore, prefix: Namespace, query: str, mode: SearchMode, as_of: float | None
) -> dict[tuple[Namespace, str], Placing] | None:
    """Each memory a ``mode``-only search of ``query`` finds in its top :data:`WHY_DEPTH`.

    ``None`` if the store's backend does not serve that mode (a Chroma server has no lexical
    search): the other arguments are those of the page's own search, which passed.
    """
    try:
        found = await store.asearch(prefix, query=query, mode=mode, as_of=as_of, limit=WHY_DEPTH)
    except InvalidArgumentError:
        return None
    return {
        (hit.namespace, hit.key): Placing(rank, hit.score or 0.0)
        for rank, hit in enumerate(found, 1)
    }


async def search(request: Request) -> Response:
    """``/search?q=&ns=&mode=&as_of=``: the search form and, with ``q``, results and why."""
    store = store_of(request)
    fields = query_fields(request)
    query = fields.text("q")
    ns_text = fields.text("ns") or ""
    mode = cast(SearchMode, fields.choice("mode", SEARCH_MODES, store.default_mode))
    as_of_text = fields.text("as_of") or ""
    form = {"q": query or "", "ns": ns_text, "mode": mode, "as_of": as_of_text}
    try:
        prefix = parse_namespace_path(ns_text) if ns_text.strip() else ()
    except InvalidNamespaceError as error:
        raise InvalidNamespaceError(f"field 'ns': {error}") from None
    as_of = read_moment(as_of_text, "as_of") if as_of_text.strip() else None
    if query is None:
        return html(request, "search.html", form=form, modes=SEARCH_MODES, searched=False)
    if not query.strip():
        raise InvalidArgumentError("field 'q' is empty: give some words to search for")
    results: list[MemoryItem] = await store.asearch(
        prefix, query=query, mode=mode, as_of=as_of, limit=RESULTS
    )
    dense = await _placings(store, prefix, query, "dense", as_of)
    lexical = await _placings(store, prefix, query, "lexical", as_of)
    periods = [(day_text(p.start), day_text(p.end - 1)) for p in named_periods(query)]
    reasons = await run_in_threadpool(held_many, [hit.value for hit in results])
    rows = [
        {
            "item": hit,
            "rank": rank,
            "held": reason,
            "dense": None if dense is None else dense.get((hit.namespace, hit.key)),
            "lexical": None if lexical is None else lexical.get((hit.namespace, hit.key)),
        }
        for rank, (hit, reason) in enumerate(zip(results, reasons), 1)
    ]
    return html(
        request,
        "search.html",
        form=form,
        modes=SEARCH_MODES,
        searched=True,
        rows=rows,
        dense_served=dense is not None,
        lexical_served=lexical is not None,
        depth=WHY_DEPTH,
        periods=periods,
        scales=SCORE_SCALES,
        score_type=results[0].score_type if results else None,
    )


async def export(request: Request) -> Response:
    """``/export/<namespace>``: the namespace's memories and history as a JSON Lines download."""
    store = store_of(request)
    where = read_namespace(request.scope, "export")
    if await store.acount(where) == 0:
        raise ItemNotFoundError(
            f"no memories in namespace {format_namespace_path(where)!r} to export"
        )
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "export.jsonl"
        await store.aexport_jsonl(written, where)
        body = written.read_bytes()
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(where)).strip("-.")[:100] or "namespace"
    return Response(
        body,
        media_type="application/jsonl",
        headers={"content-disposition": f'attachment; filename="memvault-{name}.jsonl"'},
    )
