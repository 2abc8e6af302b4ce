"""The request headers an HTTP call to a tool must send as its recorded calls did: credentials
(``credential_headers``: present, and of a recorded value where the capture shows them static) and
a pinned API version (``pinned_headers``) and a value the application checks (``guarded_headers``),
checked in that order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from capenv.interpreter.bundle.models import StaticCredential

from capenv.serving.catalog import credential_headers, guarded_headers, pinned_headers
from capenv.serving.catalog.recorded_header_values import first_sent_otherwise


def refused_headers(credentials: Iterable[str], pinned: Iterable[tuple[str, str]],
                    header: Callable[[str], str | None],
                    static: Mapping[str, StaticCredential] | None = None,
                    values: Callable[[str], tuple[str, ...]] | None = None,
                    args: Mapping[str, str] | None = None,
                    guarded: Iterable[tuple[str, str]] = ()) -> tuple[str, int] | None:
    """(why, HTTP status) when the call, its headers looked up with ``header`` (every value of one
    with ``values``), sends a credentials header twice with different values, leaves one out, sends
    a static one (``static``) with another value than recorded, or sends a pinned one otherwise
    than recorded, or a guarded one (``guarded``) otherwise than recorded (a credential bound to a path
    parameter: than recorded with the value ``args``, the call's path arguments, name there); None when it
    sends them all as recorded."""
    credentials = tuple(credentials)
    if values is not None:
        repeated, header = credential_headers.sent_credentials(credentials, header, values)
        if repeated is not None:
            return credential_headers.repeated_credential_refusal(repeated), credential_headers.STATUS
    missing = credential_headers.missing_credential(credentials, header)
    if missing is not None:
        return credential_headers.credential_refusal(missing), credential_headers.STATUS
    wrong = credential_headers.wrong_credential(credentials, static or {}, header, args)
    if wrong is not None:
        known = (static or {}).get(wrong)
        return (credential_headers.wrong_credential_refusal(wrong, known.compare if known else None,
                                                           known.cookie if known else "",
                                                           known.bound_to if known else ""),
                credential_headers.STATUS)
    other = first_sent_otherwise(pinned, header)
    if other is not None:
        return pinned_headers.unpinned_refusal(*other), pinned_headers.STATUS
    unguarded = first_sent_otherwise(guarded, header)
    if unguarded is not None:
        return guarded_headers.unguarded_refusal(*unguarded), guarded_headers.STATUS
    return None
