"""Keep the test process on loopback: a connection to any other address fails loudly.

Tests start local servers (live applications, `capenv serve`) and reach them on 127.0.0.1 or ::1;
nothing in the suite may depend on a network outside this machine.
"""

from __future__ import annotations

import ipaddress
import socket

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


class ExternalNetworkRefused(ConnectionRefusedError):
    """A test tried to reach an address outside loopback."""


def is_loopback(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _checked(address: object) -> None:
    # AF_UNIX paths and anything that is not a (host, port, ...) tuple are local by nature.
    if isinstance(address, tuple) and address and not is_loopback(address[0]):
        raise ExternalNetworkRefused(f"tests reach only loopback; refused a connection to {address[0]!r}")


def install() -> None:
    """Wrap socket.connect/connect_ex so any non-loopback address is refused (idempotent)."""
    if getattr(socket.socket.connect, "_loopback_only", False):
        return
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def guarded_connect(self, address):
        _checked(address)
        return connect(self, address)

    def guarded_connect_ex(self, address):
        _checked(address)
        return connect_ex(self, address)

    guarded_connect._loopback_only = guarded_connect_ex._loopback_only = True
    socket.socket.connect, socket.socket.connect_ex = guarded_connect, guarded_connect_ex
