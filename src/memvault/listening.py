"""The one place memvault's local servers bind a TCP port.

The MCP server's HTTP transport (:mod:`memvault.mcp_server`) and the inspector
(``memvault ui``, :mod:`memvault.inspector.app`) check their host with :func:`check_host` and
listen through :func:`listening_socket`, so neither imports the other to bind, and a port in
use or a host that does not resolve reads the same from both.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from typing import Any

from memvault.errors import InvalidArgumentError, shown

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Hosts a local server binds to without ``allow_remote``."""


def check_host(host: Any, allow_remote: bool = False, *, why: str) -> str:
    """The host a local server binds to: a loopback one unless ``allow_remote``.

    Checked before :func:`listening_socket` by the MCP server's HTTP transport (no
    authentication of its own: bound to another address, anyone who reaches it reads and
    changes the user's memories; :data:`memvault.mcp_server.NO_AUTHENTICATION`) and the
    inspector (``memvault ui``).

    Args:
        host: A host name or IP address.
        allow_remote: Whether a host other than :data:`LOOPBACK_HOSTS` (or another loopback
            address) is allowed.
        why: What binding another host would expose, for the message (the server's own).

    Returns:
        ``host``.

    Raises:
        InvalidArgumentError: On an empty host, or one not on loopback without
            ``allow_remote``.
    """
    if not isinstance(host, str) or not host:
        raise InvalidArgumentError(f"host must be a host name or address, got {shown(host)}")
    if allow_remote or host in LOOPBACK_HOSTS:
        return host
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise InvalidArgumentError(
            f"host {host} is not this machine's loopback address: {why}; bind 127.0.0.1, or "
            f"give --allow-remote to bind {host} anyway"
        )
    return host


FREE_PORT_HINT = "give another --port"
"""How to get past a port in use (:func:`listening_socket`); the inspector adds ``--port 0``."""


def listening_socket(host: str, port: int, *, fix: str = FREE_PORT_HINT) -> socket.socket:
    """A listening TCP socket on ``host:port``, which no other server may share.

    On POSIX the socket sets ``SO_REUSEADDR`` (a restarted server rebinds a port its last run
    left in ``TIME_WAIT``; a port another server listens on is still refused). On Windows,
    where ``SO_REUSEADDR`` would let a second server bind a port in use, it sets
    ``SO_EXCLUSIVEADDRUSE`` instead.

    Args:
        host: The address to bind (the caller checks it first with :func:`check_host`).
        port: The TCP port, 0 to 65535 (0 picks a free one).
        fix: What to do when the address cannot be bound, for the message.

    Returns:
        The socket, bound and listening; the caller closes it.

    Raises:
        InvalidArgumentError: If the host does not resolve or the address cannot be bound (a
            port in use, an address not this machine's), both as ``cannot listen on HOST port
            PORT (WHY): FIX``, e.g. ``cannot listen on 127.0.0.1 port 8765 (Address already in
            use): give another --port``.
    """
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listener = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise _unbound(host, port, error, fix) from None
    try:
        if os.name == "nt":
            exclusive = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)
            if exclusive is not None:
                listener.setsockopt(socket.SOL_SOCKET, exclusive, 1)
        else:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise _unbound(host, port, error, fix) from None
    return listener


def _unbound(host: str, port: int, error: OSError, fix: str) -> InvalidArgumentError:
    """The error of :func:`listening_socket` for ``error``: the same form whichever step failed."""
    why = error.strerror or str(error)
    return InvalidArgumentError(f"cannot listen on {host} port {port} ({why}): {fix}")
