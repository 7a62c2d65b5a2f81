"""The one place memvault's local servers bind a TCP port.

The MCP server's HTTP transport (:mod:`memvault.mcp_server`) and the inspector
(``memvault ui``, :mod:`memvault.inspector.app`) listen through :func:`listening_socket`, so
neither imports the other to bind, and a port in use or a host that does not resolve reads the
same from both.
"""

from __future__ import annotations

import os
import socket

from memvault.errors import InvalidArgumentError

FREE_PORT_HINT = "give another --port"
"""How to get past a port in use (:func:`listening_socket`); the inspector adds ``--port 0``."""


def listening_socket(host: str, port: int, *, fix: str = FREE_PORT_HINT) -> socket.socket:
    """A listening TCP socket on ``host:port``, which no other server may share.

    On POSIX the socket sets ``SO_REUSEADDR`` (a restarted server rebinds a port its last run
    left in ``TIME_WAIT``; a port another server listens on is still refused). On Windows,
    where ``SO_REUSEADDR`` would let a second server bind a port in use, it sets
    ``SO_EXCLUSIVEADDRUSE`` instead.

    Args:
        host: The address to bind (the caller checks it first with
            :func:`memvault.mcp_server.check_host`).
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
