"""Who may talk to the inspector: its token, the Host it is reached at, same-origin writes.

One rule a concern, all applied by :class:`Guard`, an ASGI middleware in front of every page
(:mod:`memvault.inspector.app`), in this order:

1. **Host** (DNS rebinding): the ``Host`` header must name the address and port the server
   is bound to (:func:`expected_host`), else ``421``. A page of another site whose name was
   made to resolve to 127.0.0.1 sends its own name as ``Host``.
2. **Body size**: a request body over :data:`MAX_BODY` bytes is refused (``413``) before it
   is read whole; a body is read here, at most that much, and handed on.
3. **Token**: every request but the style sheet and the icon (:data:`PUBLIC_PATHS`) carries
   the server's token. The first visit gives it in the URL (``GET /?token=...``, the URL
   ``memvault ui`` prints): the answer sets it as an ``HttpOnly``, ``SameSite=Strict`` cookie
   (named for the port, so two inspectors on one machine keep theirs) and redirects to the URL
   without it, so it leaves the address bar and the history. Later requests carry the cookie. A
   token anywhere else (a header, a form field, the URL of a ``POST``) counts for nothing:
   ``401``. Tokens are compared with :func:`secrets.compare_digest`.
4. **Origin** (CSRF): a ``POST`` must come from the inspector's own pages: its ``Origin``
   header (or, without one, its ``Referer``) is ``http://`` and the ``Host`` checked in 1
   (any Host where the inspector is bound to every interface, :data:`WILDCARD_HOSTS`, which
   only ``--allow-remote`` allows), else ``403``; the
   form token each form carries (:data:`FORM_FIELD`) is checked where the form is read
   (:func:`memvault.inspector.forms.read_form`).

Every answer carries headers that keep a stored memory from acting in the page
(:data:`SECURITY_HEADERS`: a content security policy without scripts, no framing, no
sniffing, no caching).
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from memvault.inspector.render import error_page

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 1_000_000
"""Most bytes a request body may hold (a memory's text is at most 32,000 characters)."""

TOKEN_PARAM = "token"
"""The query parameter of the first visit's URL that carries the token."""

FORM_FIELD = "form_token"
"""The hidden field of every form that carries the form token (CSRF)."""

PUBLIC_PATHS = ("/static/inspector.css", "/static/favicon.svg")
"""The paths served without the token: the style and the icon of the 401 page itself."""

WILDCARD_HOSTS = ("0.0.0.0", "::")
"""Bind addresses that mean every interface: any Host header is taken (the token still holds)."""

SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)
"""Headers added to every answer."""


def new_token() -> str:
    """A fresh random token (:func:`secrets.token_urlsafe`, 32 bytes)."""
    return secrets.token_urlsafe(32)


def same_secret(given: str | None, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time; ``None`` never is."""
    if given is None:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


def expected_host(host: str, port: int) -> str:
    """The ``Host`` header a browser sends to ``host:port``: ``127.0.0.1:8765``, ``[::1]:8765``.

    Args:
        host: The bound host name or IP address.
        port: The bound TCP port (the real one, after a port 0 was bound).
    """
    try:
        is_v6 = ipaddress.ip_address(host).version == 6
    except ValueError:
        is_v6 = False
    return f"[{host}]:{port}" if is_v6 else f"{host}:{port}"


@dataclass(frozen=True)
class Secrets:
    """What one inspector checks requests against.

    Attributes:
        host: The bound host (``127.0.0.1`` unless told otherwise).
        port: The bound port, 1 to 65535.
        token: The token of the printed URL and the cookie.
        form_token: The token every form of the inspector carries (CSRF).
    """

    host: str
    port: int
    token: str = field(default_factory=new_token, repr=False)
    form_token: str = field(default_factory=new_token, repr=False)

    @property
    def origin(self) -> str:
        """The inspector's origin, ``http://127.0.0.1:8765``."""
        return f"http://{expected_host(self.host, self.port)}"

    @property
    def cookie(self) -> str:
        """The name of the cookie carrying the token, one a port: ``memvault_ui_8765``."""
        return f"memvault_ui_{self.port}"

    @property
    def url(self) -> str:
        """The first visit's URL, with the token: ``http://127.0.0.1:8765/?token=...``."""
        return f"{self.origin}/?{TOKEN_PARAM}={self.token}"


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers, names lower-cased; a repeated one keeps its first value."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return found


def _cookie(header: str, name: str) -> str | None:
    """The value of cookie ``name`` in a ``Cookie`` header, or None."""
    for part in header.split(";"):
        key, equals, value = part.strip().partition("=")
        if equals and key == name:
            return value
    return None


class Guard:
    """ASGI middleware: the checks of the module docstring, then the inspector's routes.

    Args:
        app: The inspector's Starlette app.
        secrets_: The host, port and tokens to check against.
    """

    def __init__(self, app: ASGIApp, secrets_: Secrets) -> None:
        self.app = app
        self.secrets = secrets_

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a refused request, or pass it on with its body read and headers added."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        refused = self._refusal(scope)
        if refused is not None:
            await _answer(send_secured, *refused)
            return
        body = await _body(receive)
        if body is None:
            await _answer(
                send_secured,
                413,
                "Request too large",
                f"the request body is over {MAX_BODY:,} bytes; a memory's text is at most "
                "32,000 characters",
            )
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_secured)

    def _refusal(self, scope: Scope) -> tuple[int, str, str, list[tuple[bytes, bytes]]] | None:
        """Why a request is refused before its body is read (status, title, message, headers).

        A first visit with the right token is "refused" too: its answer is the redirect that
        sets the cookie.
        """
        secret, headers = self.secrets, _headers(scope)
        host = headers.get("host", "")
        if secret.host not in WILDCARD_HOSTS and host != expected_host(secret.host, secret.port):
            return (
                421,
                "Wrong host",
                f"this inspector answers at {secret.origin} only, not at the host "
                f"{host[:80]!r} this request names",
                [],
            )
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            return (
                413,
                "Request too large",
                f"the request body ({length[:20]} bytes) is over {MAX_BODY:,} bytes",
                [],
            )
        if scope["path"] in PUBLIC_PATHS and scope["method"] == "GET":
            return None
        query = scope.get("query_string", b"").decode("latin-1")
        pairs = parse_qsl(query, keep_blank_values=True)
        given = [value for name, value in pairs if name == TOKEN_PARAM]
        if given and scope["method"] == "GET":
            if len(given) != 1 or not same_secret(given[0], secret.token):
                return (
                    401,
                    "Wrong token",
                    "the token in this URL is not this inspector's: open the URL "
                    "'memvault ui' printed when it started",
                    [],
                )
            rest = urlencode([(name, value) for name, value in pairs if name != TOKEN_PARAM])
            location = scope["path"] + (f"?{rest}" if rest else "")
            cookie = (f"{secret.cookie}={secret.token}; Path=/; HttpOnly; SameSite=Strict").encode()
            return 303, "Signed in", "", [(b"location", location.encode()), (b"set-cookie", cookie)]
        if not same_secret(_cookie(headers.get("cookie", ""), secret.cookie), secret.token):
            return (
                401,
                "No token",
                "this request carries no token of this inspector: open the URL 'memvault ui' "
                "printed when it started (it ends with ?token=...); a token counts only there "
                "and in the cookie that URL sets",
                [],
            )
        if scope["method"] not in ("GET", "HEAD"):
            own = f"http://{host}"  # the Host checked above (any, on a wildcard address)
            origin = headers.get("origin")
            referer = headers.get("referer")
            same = (
                origin == own
                if origin is not None
                else referer is not None and referer.startswith(own + "/")
            )
            if not same:
                return (
                    403,
                    "Cross-origin request",
                    f"a change must come from the inspector's own pages at {own}; this one "
                    f"came from {(origin or referer or 'an unnamed page')[:80]!r}",
                    [],
                )
        return None


async def _body(receive: Receive) -> bytes | None:
    """The request body, or None once it grows over :data:`MAX_BODY` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _answer(
    send: Send,
    status: int,
    title: str,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Send an HTML page (or, for a redirect, an empty body) with ``status``."""
    body = b"" if 300 <= status < 400 else error_page(status, title, message).encode()
    start = [(b"content-type", b"text/html; charset=utf-8"), *(headers or [])]
    start.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})
