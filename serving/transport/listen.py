"""Where a server listens, as ``--http`` (or an environment variable) names it."""

from __future__ import annotations

LOOPBACK = "127.0.0.1"


def parse_listen(text: str, label: str = "--http") -> tuple[str, int]:
    """``HOST:PORT``, ``[::1]:PORT``, ``:PORT`` or ``PORT`` (the last two bind loopback); a
    ValueError names ``label`` and what is accepted."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not port.isdigit():
        raise ValueError(f"{label} {text}: expected HOST:PORT, :PORT or PORT (a port number 0-65535)")
    if not 0 <= int(port) <= 65535:
        raise ValueError(f"{label} {text}: port {int(port)} is out of range 0-65535")
    return host or LOOPBACK, int(port)
