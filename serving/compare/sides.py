"""The two sides of a comparison: an application over HTTP(S), or the model in process.

Both take the same ``Outgoing`` request (raw path, raw query pairs, headers, body bytes) and
give back what came in (``Observed``). The live side uses the standard library's
``http.client``: it sends the path and query exactly as spelled, follows no redirect, and
asks for no compression, so the bytes compared are the bytes the application wrote. An
application that serves only HTTPS with a certificate of its own making (a test instance on
loopback) is reached with ``verify_tls=False``: encrypted, its certificate not checked.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from capenv.serving.runtime_api import HttpRequest, Runtime

SIDES = ("live", "model")
"""The two sides, in the order every comparison visits them."""
DEFAULT_TIMEOUT_SECONDS = 30.0
CONNECT_ATTEMPTS = 3
"""How often the live side tries to connect (and shake hands) before it is unreachable: an
application under load may reset a handshake, and a request not yet sent is safe to send again."""
CONNECT_PAUSE_SECONDS = 0.5


class SideUnreachable(Exception):
    """A side could not be asked at all (refused connection, timeout, bad URL)."""


@dataclass(frozen=True)
class Outgoing:
    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    """Raw (already escaped) name/value pairs, as they go on the wire."""
    headers: tuple[tuple[str, str], ...]
    body: bytes | None

    @property
    def query_string(self) -> str:
        return "&".join(f"{name}={value}" for name, value in self.query)

    @property
    def target(self) -> str:
        return self.path + (f"?{self.query_string}" if self.query else "")


@dataclass(frozen=True)
class Observed:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)

    @property
    def media_type(self) -> str | None:
        """``application/json`` of ``application/json; charset=utf-8``; None without a content type."""
        value = self.header("content-type")
        return value.split(";", 1)[0].strip().lower() if value else None


class Side(Protocol):
    label: str

    def send(self, request: Outgoing) -> Observed: ...


MODEL_ORIGIN = "http://model.compare.invalid"
"""The origin the in-process model is reached at: its answers' links to the application (DRF's
``next`` page) name it, as the live application's name the origin it was reached at."""


def side_origin(side: Side) -> str | None:
    """``scheme://host[:port]`` the side's answers name as their own (a page link's), for the
    comparison to read as one origin; None when not known."""
    origin = getattr(side, "origin", None)
    return origin if isinstance(origin, str) and origin else None


class HttpSide:
    """An application (or a model served elsewhere) at a base URL; its path is a prefix."""

    def __init__(self, url: str, label: str, timeout: float = DEFAULT_TIMEOUT_SECONDS, *,
                 verify_tls: bool = True) -> None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SideUnreachable(f"{label}: {url!r} is not an http(s) URL with a host")
        self.label = label
        self.url = url
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self.origin = f"{parts.scheme}://{parts.netloc}"
        """As http.client names it in the Host header it sends (the port unless the default)."""
        self._timeout = timeout
        self._tls_context = None if verify_tls or not self._https else _unverified_context()

    def send(self, request: Outgoing) -> Observed:
        if self._https:
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self._host, self._port, timeout=self._timeout, context=self._tls_context)
        else:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
        headers = dict(request.headers)
        if request.body is not None:
            headers.setdefault("content-length", str(len(request.body)))
        try:
            self._connect(connection)
            connection.request(request.method, self._prefix + request.target, body=request.body, headers=headers)
            response = connection.getresponse()
            body = response.read()
            return Observed(response.status, tuple(response.getheaders()), body)
        except (OSError, http.client.HTTPException) as exc:
            reason = "timed out" if isinstance(exc, socket.timeout) else (str(exc) or type(exc).__name__)
            raise SideUnreachable(f"{self.label} {self.url}: {request.method} {request.target}: {reason}") from exc
        finally:
            connection.close()

    @staticmethod
    def _connect(connection: http.client.HTTPConnection) -> None:
        """Connect (TLS included), again after a refused or reset attempt: nothing was sent yet."""
        for attempt in range(1, CONNECT_ATTEMPTS + 1):
            try:
                connection.connect()
                return
            except (ConnectionResetError, ConnectionAbortedError, ssl.SSLEOFError):
                connection.close()
                if attempt == CONNECT_ATTEMPTS:
                    raise
                time.sleep(CONNECT_PAUSE_SECONDS * attempt)


def _unverified_context() -> ssl.SSLContext:
    """TLS that checks neither the certificate nor the host name it names."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class RuntimeSide:
    """The model in this process: the same ``Runtime.http`` the HTTP surface runs."""

    def __init__(self, runtime: Runtime, label: str = "model") -> None:
        self.label = label
        self.runtime = runtime
        self.origin = MODEL_ORIGIN

    def send(self, request: Outgoing) -> Observed:
        headers = tuple((name.lower(), value) for name, value in request.headers)
        answer = self.runtime.http(HttpRequest(method=request.method, path=request.path, query=request.query,
                                               headers=headers, body=request.body or b"",
                                               query_string=request.query_string, origin=self.origin))
        return Observed(answer.status, answer.headers, answer.body)
