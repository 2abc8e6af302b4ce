"""Where a server listens, as ``--http`` (or an environment variable) names it."""

from __future__ import annotations

import argparse

LOOPBACK = "127.0.0.1"
DATA_TOKEN_VARIABLE = "CAPENV_DATA_TOKEN"
"""Where ``capenv data`` also looks for the grader's token (kept out of the process list)."""


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


def add_access_options(parser: argparse.ArgumentParser) -> None:
    """The agent/grader split and the names a server answers to (``capenv serve``, the AgentEnv server)."""
    parser.add_argument("--data", metavar="HOST:PORT",
                        help="the grader's own listener for the data plane; the agent's listener then never "
                             "serves it")
    parser.add_argument("--data-token", metavar="TOKEN",
                        help="the grader's bearer token for the data plane (default: one is generated and printed "
                             "at start, unless --data is given)")
    parser.add_argument("--allow-host", metavar="NAME[:PORT]", action="append", default=[],
                        help="another Host name clients may use (the bind address's names are always allowed)")
    parser.add_argument("--cors", metavar="ORIGIN", action="append", default=[],
                        help="a web origin allowed to call the server from a browser (CORS is off otherwise)")


def access_from(arguments: argparse.Namespace):
    """The ``Access`` the options name; ValueError with a one-line message for a bad --data."""
    from capenv.serving.transport.http_app import Access

    data = parse_listen(arguments.data, "--data") if arguments.data else None
    return Access(data_listen=data, data_token=arguments.data_token or None, allow_hosts=tuple(arguments.allow_host),
                  cors_origins=tuple(arguments.cors))
