"""Split a request URL into origin, raw path and raw query pairs (DESIGN.md §3).

The URL is split by hand rather than with ``urllib.parse``: ``urlsplit`` silently drops tabs
and newlines and other library helpers decode escapes, while the evidence must keep the path
and the query exactly as the client sent them (``/%61cme1`` and ``/acme1`` are different
spellings). Only the origin is normalised: lower-case scheme and host, default port dropped.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from capenv.interpreter.bundle.paths import split_query

DEFAULT_PORTS = {"http": 80, "https": 443}

# scheme "://" authority path ["?" query] ["#" fragment]; the fragment is never sent, so dropped.
_ABSOLUTE_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?", re.DOTALL)
_PORT = re.compile(r"[0-9]*")


class SplitUrl(NamedTuple):
    origin: str
    """scheme://host[:port], lower-case, default port dropped."""
    path: str
    """Raw path; ``/`` when the URL has none (that is what the request line carries)."""
    query: tuple[tuple[str, str], ...]
    """Raw (name, value) pairs in order; a name without ``=`` has the value ``""``."""


class UrlError(ValueError):
    """The text is not an absolute http(s) URL; the message says why."""


def split_url(url: str) -> SplitUrl:
    match = _ABSOLUTE_URL.fullmatch(url)
    if match is None:
        raise UrlError("is not an absolute http(s) URL")
    scheme, authority, path, query = match.group(1, 2, 3, 4)
    return SplitUrl(_origin(scheme, authority), path or "/", split_query(query or ""))


def normalise_origin(text: str) -> str:
    """The origin a user typed (``--origin``), normalised; a path other than ``/`` is refused."""
    split = split_url(text.strip())
    if split.path != "/" or split.query or "?" in text:
        raise UrlError("is not an origin (scheme://host[:port] with no path or query)")
    return split.origin


def _origin(scheme: str, authority: str) -> str:
    scheme = scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise UrlError(f"has the scheme {scheme!r}, not http or https")
    host_port = authority.rpartition("@")[2]  # user info is not part of the origin
    if host_port.startswith("["):  # an IPv6 literal: [::1]:8080
        close = host_port.find("]")
        if close < 0:
            raise UrlError("has an unclosed IPv6 address")
        host, rest = host_port[: close + 1], host_port[close + 1:]
        if rest and not rest.startswith(":"):
            raise UrlError("has text after its IPv6 address")
        port = rest[1:]
    else:
        host, _, port = host_port.partition(":")
    if not host:
        raise UrlError("has no host")
    if not _PORT.fullmatch(port) or (port and int(port) > 65535):
        raise UrlError(f"has the port {port!r}, not a number up to 65535")
    origin = f"{scheme}://{host.lower()}"
    if port and int(port) != DEFAULT_PORTS[scheme]:
        origin += f":{int(port)}"
    return origin
