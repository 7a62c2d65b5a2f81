"""The inspector's HTML: Jinja2 templates packaged beside this module, escaped by default.

Every value a template shows goes through Jinja2's autoescaping, so a memory's text holding
``<script>`` or ``"><img onerror=...>`` is shown as text, never run (the content security
policy of :mod:`memvault.inspector.security` allows no script either). Links to a namespace
or a memory are built here (:func:`namespace_url`, :func:`item_url`): each namespace segment
and the key are one path segment (:func:`memvault.inspector.paths.url_segment`: ``/`` inside
one as ``%2F``, ``.`` and ``..`` escaped as ``~.`` and ``~..``), so any namespace and key has
a URL a browser keeps, read back by :mod:`memvault.inspector.paths`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2

from memvault.inspector.paths import url_segment
from memvault.model import Namespace, Provenance
from memvault.moments import moment_text, validity_text
from memvault.namespace import format_namespace_path

TEMPLATES = Path(__file__).parent / "templates"
"""The folder of the page templates."""


def _segments(parts: tuple[str, ...]) -> str:
    return "/".join(url_segment(part) for part in parts)


def namespace_url(namespace: Namespace) -> str:
    """The page of a namespace: ``/ns/users/alice``."""
    return f"/ns/{_segments(namespace)}"


def item_url(namespace: Namespace, key: str, action: str = "item") -> str:
    """The page of one memory (``/item/users/alice/tea``), or of an action on it.

    Args:
        namespace: The memory's namespace.
        key: Its key.
        action: ``"item"`` (the memory and its history), ``"edit"``, ``"forget"``,
            ``"erase"`` or ``"release"``.
    """
    return f"/{action}/{_segments((*namespace, key))}"


def export_url(namespace: Namespace) -> str:
    """The JSON Lines download of a namespace: ``/export/users/alice``."""
    return f"/export/{_segments(namespace)}"


def written_by(provenance: Provenance) -> str:
    """Who wrote a memory's current version and in which session: ``"user · session t1"``.

    Args:
        provenance: The memory's :attr:`~memvault.MemoryItem.provenance`.

    Returns:
        Its origin (``"api"`` for a record from before provenance), then ``" · session "``
        and the session where it has one.
    """
    if provenance.session is None:
        return provenance.origin
    return f"{provenance.origin} · session {provenance.session}"


def quarantined_url(namespace: Namespace = (), page: int = 1) -> str:
    """A page of the memories the firewall holds: ``/quarantined?ns=users%2Falice&page=2``.

    Args:
        namespace: The prefix; ``()`` for the whole store.
        page: The page number, from 1 (left out of the URL for 1).
    """
    fields = {"ns": format_namespace_path(namespace)} if namespace else {}
    if page > 1:
        fields["page"] = str(page)
    return "/quarantined" + (f"?{urlencode(fields)}" if fields else "")


def _time(seconds: float | None) -> str:
    return "-" if seconds is None else moment_text(seconds)


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=True,  # every template is HTML
    undefined=jinja2.StrictUndefined,  # a misspelt name is a bug, not an empty string
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENVIRONMENT.filters.update(
    time=_time,
    path=format_namespace_path,
    pretty=_pretty,
    exact=repr,  # a float as it reads back exactly (a form's updated_at)
    written_by=written_by,
)
_ENVIRONMENT.globals.update(
    namespace_url=namespace_url,
    item_url=item_url,
    export_url=export_url,
    quarantined_url=quarantined_url,
    validity=validity_text,
)


def page(template: str, **context: Any) -> str:
    """A page rendered from ``templates/<template>``.

    Args:
        template: The template's file name, e.g. ``"namespaces.html"``.
        **context: The values it shows.

    Raises:
        jinja2.TemplateError: On a template that does not render (a bug).
    """
    return _ENVIRONMENT.get_template(template).render(**context)


def error_page(status: int, title: str, message: str, current: Any = None) -> str:
    """The page of a refused or failed request: the status, a title and what to do.

    Args:
        status: The HTTP status, e.g. ``404``.
        title: A few words, e.g. ``"Not found"``.
        message: What was wrong and how to fix it (names the field where one was wrong).
        current: On a conflict, the memory as it is now (a ``MemoryItem``), or ``None``.
    """
    return page("error.html", status=status, title=title, message=message, current=current)
