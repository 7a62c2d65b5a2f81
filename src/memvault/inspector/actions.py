"""The inspector's changes: edit a memory's text, forget it, erase it, release a held one.

Each is a ``POST`` of a form from the inspector's own pages (the guard of
:mod:`memvault.inspector.security` checked its origin; :func:`~memvault.inspector.forms.read_form`
checks its form token) and goes through :class:`~memvault.MemoryStore`'s public API with
source ``"ui"`` in the history:

- **edit**: ``put`` of the value with the new text (and context), ``if_updated_at=`` the
  version the page showed, so an edit over a change made meanwhile is a ``409`` page
  showing the current version (:class:`~memvault.errors.ConflictError`) and writes
  nothing; the edit keeps the memory's provenance (an edited memory an assistant wrote is
  not made trusted by the edit: ``AgentMemory(trust=...)``); the new text is screened
  again by the poisoning firewall (held if it reads as an instruction, no longer held if
  it does not);
- **forget**: ``delete`` of the version shown (its history stays);
- **erase**: ``delete(erase=True)``: the memory and the text of every history entry go;
- **release**: a memory the poisoning firewall holds, once a person reviewed it, is let into
  prompts again (:func:`memvault.review.release`, as ``memvault release`` does: its history
  says ``"reviewer"``), if it is still the version the page showed.

Forget, erase and release take two steps: ``GET /forget/...`` (or ``/erase/...``,
``/release/...``) is a page saying what will happen with a button; only its form (field
``confirmed=yes``) does it. Each change
answers a redirect (``303``) to the memory's page, whose history shows it.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from memvault.errors import ConflictError, InvalidArgumentError, ItemNotFoundError
from memvault.firewall import QUARANTINED, RELEASED, held, screen
from memvault.inspector.forms import read_form
from memvault.inspector.paths import read_item
from memvault.inspector.render import item_url
from memvault.inspector.views import form_token_of, html, store_of
from memvault.items import MemoryItem
from memvault.model import Namespace
from memvault.namespace import format_namespace_path
from memvault.review import release

SOURCE = "ui"
"""The source the history records for the inspector's changes."""


def _absent(where: Namespace, key: str) -> ItemNotFoundError:
    return ItemNotFoundError(
        f"no live memory {key!r} in namespace {format_namespace_path(where)!r}: it was "
        "forgotten, erased or expired; its page shows what is left"
    )


async def _live(request: Request, where: Namespace, key: str) -> MemoryItem:
    """The live memory at ``(where, key)``.

    Raises:
        ItemNotFoundError: If there is none.
    """
    found = await store_of(request).aget(where, key)
    if found is None:
        raise _absent(where, key)
    return found


def _back(where: Namespace, key: str) -> Response:
    return RedirectResponse(item_url(where, key), status_code=303)


def _rescreen(value: dict[str, Any]) -> None:
    """Mark an edited value as the firewall reads its new text, in place.

    ``value["quarantined"]`` becomes why the new text is held (:func:`memvault.firewall.held`
    with the old mark dropped: :func:`~memvault.firewall.screen` of the text, unless a
    reviewer released this very text), and a stale ``"released"`` goes; a text that screens
    clean is neither held nor marked released. Runs the firewall's model: call it in a worker
    thread, never on the event loop.
    """
    value.pop(QUARANTINED, None)
    reason = held(value)
    if reason is not None:
        value[QUARANTINED] = reason
        value.pop(RELEASED, None)
    elif screen(value["text"]) is None:
        value.pop(RELEASED, None)


async def edit(request: Request) -> Response:
    """``POST /edit/<namespace>/<key>``: fields ``text``, ``updated_at``, maybe ``context``.

    ``context`` is the form's for a memory with a ``"context"`` (the conversation around it,
    which search and export read too): saved in the same compare-and-set ``put`` as the text,
    an empty one removing it.

    The text's line breaks are sent by browsers as CRLF; they are stored as LF. An empty
    text, a NUL or an over-long text is refused naming field ``text``
    (:meth:`~memvault.inspector.forms.Fields.prose`) before the store is asked.
    """
    where, key = read_item(request.scope, "edit")
    fields = await read_form(request, form_token_of(request))
    fields.text("text", required=True)
    text = fields.prose("text")
    assert text is not None
    shown_at = fields.number("updated_at")
    found = await _live(request, where, key)
    value = {**found.value, "text": text}
    context = fields.prose("context", blank=True)
    if context is not None and context.strip():
        value["context"] = context
    elif context is not None:
        value.pop("context", None)
    await run_in_threadpool(_rescreen, value)
    await store_of(request).aput(
        where, key, value, if_updated_at=shown_at, source=SOURCE, provenance=found.provenance
    )
    return _back(where, key)


async def confirm_forget(request: Request) -> Response:
    """``GET /forget/<namespace>/<key>``: the page that asks before forgetting."""
    where, key = read_item(request.scope, "forget")
    found = await _live(request, where, key)
    return html(
        request, "confirm.html", action="forget", namespace=where, key=key, item=found, held=None
    )


async def forget(request: Request) -> Response:
    """``POST /forget/<namespace>/<key>``: fields ``confirmed=yes`` and ``updated_at``."""
    where, key = read_item(request.scope, "forget")
    fields = await read_form(request, form_token_of(request))
    fields.confirmed()
    shown_at = fields.number("updated_at")
    await _live(request, where, key)
    await store_of(request).adelete(where, key, if_updated_at=shown_at, source=SOURCE)
    return _back(where, key)


async def confirm_erase(request: Request) -> Response:
    """``GET /erase/<namespace>/<key>``: the page that asks before erasing."""
    where, key = read_item(request.scope, "erase")
    store = store_of(request)
    found = await store.aget(where, key)
    if found is None and not await store.ahistory(where, key):
        raise ItemNotFoundError(
            f"no memory {key!r} in namespace {format_namespace_path(where)!r}, and none was "
            "ever written there"
        )
    return html(
        request, "confirm.html", action="erase", namespace=where, key=key, item=found, held=None
    )


async def erase(request: Request) -> Response:
    """``POST /erase/<namespace>/<key>``: fields ``confirmed=yes`` and ``updated_at``.

    ``updated_at`` is the live version's, or empty where the page showed only a history
    (then a memory written there since is a conflict, not erased unseen).
    """
    where, key = read_item(request.scope, "erase")
    fields = await read_form(request, form_token_of(request))
    fields.confirmed()
    store = store_of(request)
    found = await store.aget(where, key)
    if fields.text("updated_at", required=True) == "":
        if found is not None:
            raise ConflictError(
                f"memory {key!r} was written again since its page was shown; look at it "
                "before erasing it",
                namespace=where,
                key=key,
                updated_at=found.updated_at,
            )
        if not await store.ahistory(where, key):
            raise _absent(where, key)
        await store.adelete(where, key, erase=True, source=SOURCE)
        return _back(where, key)
    shown_at = fields.number("updated_at")
    if found is None:
        raise _absent(where, key)
    await store.adelete(where, key, erase=True, if_updated_at=shown_at, source=SOURCE)
    return _back(where, key)


async def _held_live(request: Request, where: Namespace, key: str) -> tuple[MemoryItem, str]:
    """The live memory at ``(where, key)`` and why the firewall holds it.

    Raises:
        ItemNotFoundError: If there is none.
        InvalidArgumentError: If the firewall does not hold it (nothing to release).
    """
    found = await _live(request, where, key)
    reason = await run_in_threadpool(held, found.value)
    if reason is None:
        raise InvalidArgumentError(
            f"memory {key!r} in namespace {format_namespace_path(where)!r} is not held by the "
            "firewall: there is nothing to release (the page 'Held' lists those that are)"
        )
    return found, reason


async def confirm_release(request: Request) -> Response:
    """``GET /release/<namespace>/<key>``: the page that asks before releasing a held memory."""
    where, key = read_item(request.scope, "release")
    found, reason = await _held_live(request, where, key)
    return html(
        request, "confirm.html", action="release", namespace=where, key=key, item=found, held=reason
    )


async def release_held(request: Request) -> Response:
    """``POST /release/<namespace>/<key>``: fields ``confirmed=yes`` and ``updated_at``.

    Releases the memory only if it is still the version the confirmation page showed, else a
    :class:`~memvault.errors.ConflictError` (``409``) and nothing is written.
    """
    where, key = read_item(request.scope, "release")
    fields = await read_form(request, form_token_of(request))
    fields.confirmed()
    shown_at = fields.number("updated_at")
    found, _ = await _held_live(request, where, key)
    if found.updated_at != shown_at:
        raise ConflictError(
            f"memory {key!r} was written meanwhile; review this version before releasing it",
            namespace=where,
            key=key,
            updated_at=found.updated_at,
        )
    await run_in_threadpool(release, store_of(request), where, key)
    return _back(where, key)
