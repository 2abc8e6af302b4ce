"""The suite reaches only loopback: the guard installed by conftest refuses anything else."""

from __future__ import annotations

import socket

import pytest

from support.loopback_only import ExternalNetworkRefused, is_loopback


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.1", "::1", "localhost", "LOCALHOST"])
def test_loopback_hosts_are_allowed(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.1", "192.0.2.7", "2001:db8::1", "example.com", "0.0.0.0"])
def test_other_hosts_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)


@pytest.mark.parametrize("method", ["connect", "connect_ex"])
def test_a_connection_outside_loopback_is_refused_before_any_packet(method: str) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        with pytest.raises(ExternalNetworkRefused, match="192.0.2.7"):
            getattr(sock, method)(("192.0.2.7", 80))


def test_a_loopback_connection_still_works() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5) as client:
            accepted, _ = server.accept()
            with accepted:
                client.sendall(b"ping")
                assert accepted.recv(4) == b"ping"
