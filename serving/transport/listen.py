"""Where a server listens, as ``--http`` (or an environment variable) names it."""

from __future__ import annotations

import argparse
import os

LOOPBACK = "127.0.0.1"
DATA_TOKEN_VARIABLE = "CAPENV_DATA_TOKEN"
"""Where ``capenv data`` and ``capenv serve`` also look for the grader's token: a variable of the
process, unlike an option, is not in the process list (/proc/PID/cmdline) the agent's user may read."""


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


def add_access_options(parser: argparse.ArgumentParser, *, token_from_environment: bool = False) -> None:
    """The agent/grader split and the names a server answers to (``capenv serve``, the AgentEnv server);
    ``token_from_environment`` as ``access_from``'s, for the help."""
    parser.add_argument("--data", metavar="HOST:PORT",
                        help="the grader's own listener for the data plane; the agent's listener then never "
                             "serves it")
    parser.add_argument("--data-token", metavar="TOKEN",
                        help="the grader's bearer token for the data plane (default: "
                             + (f"${DATA_TOKEN_VARIABLE} when set, which keeps the token out of the process list; "
                                "else " if token_from_environment else "")
                             + "one is generated and printed at start, unless --data is given)")
    parser.add_argument("--allow-host", metavar="NAME[:PORT]", action="append", default=[],
                        help="another Host name clients may use (the bind address's names are always allowed)")
    parser.add_argument("--cors", metavar="ORIGIN", action="append", default=[],
                        help="a web origin allowed to call the server from a browser (CORS is off otherwise)")


def access_from(arguments: argparse.Namespace, *, token_from_environment: bool = False):
    """The ``Access`` the options name; ValueError with a one-line message for a bad --data.

    With ``token_from_environment``, ``CAPENV_DATA_TOKEN`` (when set and not empty) is the token
    when ``--data-token`` is not given, on the agent's listener or the grader's own."""
    from capenv.serving.transport.http_app import Access

    data = parse_listen(arguments.data, "--data") if arguments.data else None
    token = arguments.data_token or (os.environ.get(DATA_TOKEN_VARIABLE) if token_from_environment else None)
    return Access(data_listen=data, data_token=token or None, allow_hosts=tuple(arguments.allow_host),
                  cors_origins=tuple(arguments.cors))
