"""The inspector's web app: its routes, how errors become pages, and the server that runs it.

:func:`build_app` puts the pages of :mod:`memvault.inspector.views` and the changes of
:mod:`memvault.inspector.actions` behind the guard of :mod:`memvault.inspector.security`;
:func:`serve` binds the address, prints the URL with the token, opens the browser and runs
uvicorn until interrupted. A :class:`~memvault.errors.MemvaultError` a page raises becomes an
error page (:data:`STATUSES`): nothing was changed by the request that got one.
"""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from memvault.errors import (
    ConflictError,
    InvalidArgumentError,
    InvalidFilterError,
    InvalidKeyError,
    InvalidNamespaceError,
    InvalidValueError,
    ItemNotFoundError,
    MemvaultError,
    StoreBusyError,
)
from memvault.inspector import DEFAULT_PORT, actions, views
from memvault.inspector.render import error_page
from memvault.inspector.security import Guard, Secrets
from memvault.listening import FREE_PORT_HINT, listening_socket
from memvault.store import MemoryStore

STATIC = Path(__file__).parent / "static"
"""The folder of the style sheet and the icon."""

STYLE = (STATIC / "inspector.css").read_bytes()
"""The one style sheet."""

ICON = (STATIC / "favicon.svg").read_bytes()
"""The pages' icon (each page links it, so a browser asks for no ``/favicon.ico``)."""

STATUSES: tuple[tuple[type[MemvaultError], int, str], ...] = (
    (ConflictError, 409, "Changed meanwhile"),
    (ItemNotFoundError, 404, "Not found"),
    (InvalidNamespaceError, 400, "Bad namespace"),
    (InvalidKeyError, 400, "Bad key"),
    (InvalidValueError, 400, "Bad value"),
    (InvalidFilterError, 400, "Bad filter"),
    (InvalidArgumentError, 400, "Bad request"),
    (StoreBusyError, 503, "Store busy"),
)
"""The HTTP status and title of each error a page may raise; any other is ``500``."""


async def _style(request: Request) -> Response:
    return Response(STYLE, media_type="text/css")


async def _icon(request: Request) -> Response:
    return Response(ICON, media_type="image/svg+xml")


async def _memvault_error(request: Request, error: Exception) -> Response:
    """The page of a MemvaultError: its status, its message, and for a conflict the current."""
    status, title = next(
        ((code, words) for kind, code, words in STATUSES if isinstance(error, kind)),
        (500, "Store error"),
    )
    current = None
    if isinstance(error, ConflictError):
        current = await views.store_of(request).aget(error.namespace, error.key)
    body = error_page(status, title, str(error), current=current)
    return HTMLResponse(body, status_code=status)


async def _http_error(request: Request, error: Exception) -> Response:
    """The page of an unknown path (404) or a method a path does not take (405)."""
    assert isinstance(error, HTTPException)
    message = (
        f"no page at {request.url.path[:80]!r}: start from the home page"
        if error.status_code == 404
        else f"{request.method} is not taken at {request.url.path[:80]!r}"
        if error.status_code == 405
        else str(error.detail)
    )
    body = error_page(
        error.status_code, "Not found" if error.status_code == 404 else "Refused", message
    )
    return HTMLResponse(body, status_code=error.status_code, headers=error.headers)


ROUTES = [
    Route("/", views.home, methods=["GET"]),
    Route("/search", views.search, methods=["GET"]),
    Route("/static/inspector.css", _style, methods=["GET"]),
    Route("/static/favicon.svg", _icon, methods=["GET"]),
    Route("/quarantined", views.quarantined, methods=["GET"]),
    Route("/ns/{rest:path}", views.namespace, methods=["GET"]),
    Route("/item/{rest:path}", views.item, methods=["GET"]),
    Route("/export/{rest:path}", views.export, methods=["GET"]),
    Route("/edit/{rest:path}", actions.edit, methods=["POST"]),
    Route("/forget/{rest:path}", actions.confirm_forget, methods=["GET"]),
    Route("/forget/{rest:path}", actions.forget, methods=["POST"]),
    Route("/erase/{rest:path}", actions.confirm_erase, methods=["GET"]),
    Route("/erase/{rest:path}", actions.erase, methods=["POST"]),
    Route("/release/{rest:path}", actions.confirm_release, methods=["GET"]),
    Route("/release/{rest:path}", actions.release_held, methods=["POST"]),
]
"""Every page; the module docstring of :mod:`memvault.inspector` lists what each shows."""


def build_app(store: MemoryStore, secrets: Secrets) -> Guard:
    """The inspector over ``store``, as an ASGI app, every request checked by the guard.

    Args:
        store: The store to show and change (its public API only).
        secrets: The bound host and port and the tokens (:class:`Secrets`).

    Returns:
        An ASGI app (a :class:`Guard` around the Starlette app).
    """
    app = Starlette(
        routes=ROUTES,
        exception_handlers={MemvaultError: _memvault_error, HTTPException: _http_error},
    )
    app.state.store = store
    app.state.secrets = secrets
    return Guard(app, secrets)


def serve(
    store: MemoryStore,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    open_browser: bool = True,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the inspector until interrupted (Ctrl-C).

    Args:
        store: The store to show and change.
        host: The address to bind; check it first
            (:func:`memvault.listening.check_host`, as ``memvault ui`` does).
        port: The TCP port, 0 to 65535; 0 picks a free one (default
            :data:`~memvault.inspector.DEFAULT_PORT`, 8766).
        open_browser: Open the URL in the default browser.
        announce: Called once with the URL (with the token) when the server listens.

    Raises:
        InvalidArgumentError: If the address cannot be bound (in use, not this machine's).
    """
    import uvicorn

    listener = listening_socket(host, port, fix=f"{FREE_PORT_HINT}, or --port 0 for a free one")
    secrets = Secrets(host, listener.getsockname()[1])
    config = uvicorn.Config(
        build_app(store, secrets),
        log_level="warning",
        proxy_headers=False,
        server_header=False,
        lifespan="off",
    )
    announce(secrets.url)
    if open_browser:
        webbrowser.open(secrets.url)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
