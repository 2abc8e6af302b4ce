"""Who may reach which surface of an HTTP listener: the agent/grader split, Host and Origin,
CORS and request content types.

capenv serves an agent under test on one side and its grader on the other. The agent's
listener (MCP and the application's own paths) never serves the grader's data plane unless the
request carries the grader's bearer token; a listener of the grader's own (``--data``) serves
only the data plane. Every listener checks ``Host`` (against DNS rebinding) and ``Origin``
(against web pages the agent's browser opens) whatever its bind address, answers CORS only for
origins named with ``--cors``, and refuses request bodies that are not JSON (a cross-site
``text/plain`` POST needs no preflight, so it would otherwise write).
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

WILDCARD_BINDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = {"127.0.0.1": ("127.0.0.1", "localhost"), "localhost": ("127.0.0.1", "localhost"),
                  "::1": ("[::1]", "localhost")}
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Listener = tuple[str, int]
"""A listening socket by its own address and port, as ``getsockname`` gives them (``0.0.0.0`` or
``::`` for a wildcard bind): two listeners may share a port number on two addresses."""


@dataclass(frozen=True)
class Refusal:
    status: int
    error: str
    message: str
    headers: tuple[tuple[str, str], ...] = ()


def host_names(bind_host: str) -> tuple[str, ...]:
    """The names a client on this machine uses for a bind address (with brackets for IPv6)."""
    if bind_host in LOOPBACK_NAMES:
        return LOOPBACK_NAMES[bind_host]
    if bind_host in WILDCARD_BINDS:  # every interface: loopback names only, the rest by --allow-host
        return ("127.0.0.1", "localhost", "[::1]")
    return (f"[{bind_host}]",) if ":" in bind_host else (bind_host,)


def allowed_hosts(bind_host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """``host:port`` values a ``Host`` header may carry: the bind address's names, and each
    ``--allow-host`` (a bare name is taken on this port)."""
    names = {f"{name}:{port}" for name in host_names(bind_host)}
    for given in extra:
        given = given.strip().lower()
        has_port = given.rsplit(":", 1)[-1].isdigit() and (not given.startswith("[") or "]:" in given)
        names.add(given if has_port else f"{given}:{port}")
    return frozenset(n.lower() for n in names)


@dataclass(frozen=True)
class ListenerPolicy:
    """What one listening socket serves, and to whom."""

    hosts: frozenset[str]
    """``host:port`` values accepted in ``Host``."""
    serves_application: bool
    """MCP and the application's own paths (the agent's listener)."""
    data_token: str | None
    """The bearer token the data plane needs here; None on a grader's own listener without one."""
    serves_data: bool
    cors_origins: frozenset[str] = field(default_factory=frozenset)

    def origins(self) -> frozenset[str]:
        """The origins that may call this listener: its own names (http and https) and ``--cors``'s."""
        return self._origins

    @functools.cached_property
    def _origins(self) -> frozenset[str]:  # worked out once per listener, not per request sending Origin
        return frozenset({f"http://{h}" for h in self.hosts} | {f"https://{h}" for h in self.hosts}
                         | self.cors_origins)

    def check_host(self, headers: dict[str, str]) -> Refusal | None:
        host = headers.get("host", "").strip().lower()
        if host in self.hosts or (host and f"{host}:80" in self.hosts):
            return None
        shown = ", ".join(sorted(self.hosts))
        return Refusal(421, "misdirected_request",
                       f"Host {host or '(none)'!s} is not a name this server answers to ({shown}); "
                       "start it with --allow-host NAME to add one")

    def check_origin(self, headers: dict[str, str]) -> Refusal | None:
        origin = headers.get("origin")
        if origin is None or origin.rstrip("/").lower() in self.origins():
            return None
        return Refusal(403, "forbidden",
                       f"Origin {origin} may not call this server; start it with --cors {origin} to allow it")

    def check_data_token(self, headers: dict[str, str]) -> Refusal | None:
        if not self.serves_data:
            return Refusal(404, "not_found", "the data plane is not served on this listener; the grader reaches "
                                             "it on its own address (--data) or with its bearer token")
        if self.data_token is None:
            return None
        scheme, _, given = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.data_token.encode()):
            return None
        return Refusal(401, "unauthorized", "the data plane needs the grader's token: Authorization: Bearer TOKEN "
                                            "(printed by capenv serve, or given with --data-token)",
                       (("www-authenticate", 'Bearer realm="capenv data plane"'),))

    def cors_headers(self, headers: dict[str, str]) -> tuple[tuple[str, str], ...]:
        origin = headers.get("origin", "").rstrip("/")
        if origin.lower() not in self.cors_origins:
            return ()
        return (("access-control-allow-origin", origin), ("vary", "Origin"))

    def preflight(self, method: str, headers: dict[str, str]) -> tuple[tuple[str, str], ...] | None:
        """The headers of a CORS preflight answer for an origin named with --cors, else None."""
        if method != "OPTIONS" or "access-control-request-method" not in headers:
            return None
        allow = self.cors_headers(headers)
        if not allow:
            return None
        requested = headers.get("access-control-request-headers", "")
        return (*allow, ("access-control-allow-methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
                ("access-control-allow-headers", requested or "content-type"), ("access-control-max-age", "600"))


def policy_for_server(policies: Mapping[Listener, ListenerPolicy], server: Sequence | None) -> ListenerPolicy:
    """The policy of the socket a request reached, by the request's local address and port (the
    ASGI scope's ``server``): the listener bound to that address, else the one bound to every
    address of its family on that port; else the agent's, the strictest. Never by port alone: with
    ``--http 10.0.0.5:8000 --data 127.0.0.1:8000`` the agent's requests would get the grader's."""
    if server:
        address, port = str(server[0]), server[1]
        wildcard = "::" if ":" in address else "0.0.0.0"
        found = policies.get((address, port)) or policies.get((wildcard, port))
        if found is not None:
            return found
    return next(p for p in policies.values() if p.serves_application)


def is_json_type(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def check_json_body(method: str, headers: dict[str, str], body: bytes) -> Refusal | None:
    """A request body that is not declared JSON is refused (415)."""
    if method not in BODY_METHODS or not body:
        return None
    declared = headers.get("content-type", "")
    if is_json_type(declared):
        return None
    return Refusal(415, "unsupported_media_type",
                   f"request bodies must be JSON (content-type application/json or application/*+json), "
                   f"not {declared or 'undeclared'}")
