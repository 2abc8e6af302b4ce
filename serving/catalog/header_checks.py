"""The request headers an HTTP call to a tool must send as its recorded calls did: credentials
(``credential_headers``) and a pinned API version (``pinned_headers``), checked in that order."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from capenv.serving.catalog import credential_headers, pinned_headers


def refused_headers(credentials: Iterable[str], pinned: Iterable[tuple[str, str]],
                    header: Callable[[str], str | None]) -> tuple[str, int] | None:
    """(why, HTTP status) when the call, its headers looked up with ``header``, leaves out a
    credentials header or sends a pinned one otherwise than recorded; None when it sends both."""
    missing = credential_headers.missing_credential(credentials, header)
    if missing is not None:
        return credential_headers.credential_refusal(missing), credential_headers.STATUS
    other = pinned_headers.unpinned_header(pinned, header)
    if other is not None:
        return pinned_headers.unpinned_refusal(*other), pinned_headers.STATUS
    return None
