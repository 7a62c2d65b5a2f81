"""Memories as people look at them in Jupyter: :class:`Memories`, a list that renders as a table.

``MemoryStore.search`` (and ``asearch``), ``MemoryScope.recall`` and ``MemoryScope.list``
return :class:`Memories`, a subclass of ``list[MemoryItem]``: every caller and type checker
still gets a list, and a notebook cell ending in a search shows an HTML table instead of the
items' reprs (:func:`html_table`: key, text, score and what it is, since/until, namespace, who
wrote it, and why the firewall holds it from prompts if it does).

This is for people. What a model reads is :func:`memvault.context.format_memories`, one line
of JSON per memory, fenced as data; the two are not mixed.

Every text in the table (keys, texts, namespaces) is escaped (:func:`html.escape`), so a
memory holding markup shows it as text, never as markup a notebook would run.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from memvault.firewall import held_many
from memvault.items import MemoryItem
from memvault.moments import day_text
from memvault.namespace import format_namespace_path
from memvault.truncation import truncated

__all__ = ["Memories", "html_table", "TABLE_TEXT_CHARS"]

TABLE_TEXT_CHARS = 500
"""Most characters of a memory's text a table cell shows; a longer text is cut with the
marker of :func:`memvault.truncation.truncated` (the item keeps its whole text)."""

_COLUMNS = ("key", "text", "score", "since", "until", "namespace", "written by", "held")


class Memories(list[MemoryItem]):
    """A ``list[MemoryItem]`` that Jupyter shows as a table (:meth:`_repr_html_`).

    It is a plain list in every other way: indexing, slicing (a slice is a plain ``list``),
    equality with a list, ``json``, pickling; its ``repr`` is a list's.
    """

    def _repr_html_(self) -> str:
        """The items as an HTML table (:func:`html_table`), for Jupyter's rich display."""
        return html_table(self)


def html_table(items: Iterable[MemoryItem]) -> str:
    """Memories as one HTML ``<table>``, a row per memory in the order given.

    Columns: ``key``; ``text`` (cut to :data:`TABLE_TEXT_CHARS`); ``score`` with what it is
    (``"0.150 hybrid"``, empty without a score); ``since`` and ``until``, the days (UTC) its
    ``valid_from`` and ``valid_to`` fall on (``until`` empty while it holds); ``namespace``
    as a path (``users/alice``); ``written by``, the origin and session of its provenance
    (``"user · thread-1"``, ``"api"``; :class:`~memvault.model.Provenance`); ``held``, why
    the poisoning firewall holds it from prompts (:func:`memvault.firewall.held_many`, one
    batch for the table), empty if
    it does not. Every text is escaped with :func:`html.escape`.

    Args:
        items: The memories (any iterable of :class:`~memvault.items.MemoryItem`).

    Returns:
        The table, with a caption counting the memories.
    """
    listed = list(items)
    reasons = held_many([item.value for item in listed])
    rows = [_row(item, reason) for item, reason in zip(listed, reasons)]
    head = "".join(f"<th>{name}</th>" for name in _COLUMNS)
    count = f"{len(rows)} {'memory' if len(rows) == 1 else 'memories'}"
    return (
        f'<table class="memvault-memories"><caption>{count}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _row(item: MemoryItem, reason: str | None) -> str:
    """One ``<tr>`` of :func:`html_table`: ``item``, held for ``reason`` (``None``: not held)."""
    origin, session = item.provenance.origin, item.provenance.session
    score = "" if item.score is None else f"{item.score:.3f} {item.score_type or ''}".strip()
    cells = (
        item.key,
        truncated(item.text, TABLE_TEXT_CHARS),
        score,
        day_text(item.valid_from),
        "" if item.valid_to is None else day_text(item.valid_to),
        format_namespace_path(item.namespace),
        " · ".join(part for part in (origin, session) if part is not None),
        reason or "",
    )
    shown = [f"<td>{html.escape(cell)}</td>" for cell in cells]
    shown[1] = f'<td style="text-align: left">{html.escape(cells[1])}</td>'  # text reads left
    return "<tr>" + "".join(shown) + "</tr>"
