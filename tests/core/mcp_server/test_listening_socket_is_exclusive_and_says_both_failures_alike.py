"""The servers' listening socket: SO_REUSEADDR on POSIX only (on Windows it would let a second
server bind a busy port), a busy port refused, and a host that does not resolve said in the
same form as a port that cannot be bound."""

import socket

import pytest

import memvault.listening
from memvault.errors import InvalidArgumentError
from memvault.listening import listening_socket


def test_posix_reuses_the_address_and_a_busy_port_is_refused():
    with listening_socket("127.0.0.1", 0) as first:
        assert first.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)
        port = first.getsockname()[1]
        with pytest.raises(InvalidArgumentError) as refused:
            listening_socket("127.0.0.1", port)
    assert str(refused.value).startswith(f"cannot listen on 127.0.0.1 port {port} (")
    assert str(refused.value).endswith("): give another --port")


def test_windows_does_not_set_reuseaddr(monkeypatch):
    monkeypatch.setattr(memvault.listening.os, "name", "nt")
    with listening_socket("127.0.0.1", 0) as listener:
        assert listener.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR) == 0


def test_a_host_that_does_not_resolve_is_said_as_a_bind_failure(monkeypatch):
    def unresolved(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(memvault.listening.socket, "getaddrinfo", unresolved)
    with pytest.raises(InvalidArgumentError) as refused:
        listening_socket("nowhere.example", 8765)
    assert str(refused.value) == (
        "cannot listen on nowhere.example port 8765 (Name or service not known): "
        "give another --port"
    )
