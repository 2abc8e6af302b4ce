"""Headers carrying credentials a tool's recorded calls all sent (``WritePlan.credential_headers``,
``ReplayTable.credential_headers``; the ``write-credentials`` table): an HTTP call leaving one out
is refused, since the application refuses a call without its credentials (401/403) where the model
would answer it. Where the capture shows the credential static (``ReplayTable.static_credentials``:
one value or a few, not a login's token nor one minted per call) a call sending another value is
refused too (a wrong password or API key); the refusal never says the recorded value. MCP calls
carry no HTTP credentials: nothing here applies to them. A call's Cookie headers are read joined
(``sent_credentials``), and a session cookie named twice with different values is another caller's
as much as the principal's (``credential_digest``), so it is refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from urllib.parse import unquote

from capenv.interpreter.bundle.credential_values import (COMPARE_SESSION_COOKIE, COMPARE_SIGNED_RECORDED,
                                                        COMPARE_SIGNED_SHAPE, bound_digest, credential_digest)
from capenv.interpreter.bundle.models import StaticCredential

STATUS = 401


def missing_credential(names: Iterable[str], header: Callable[[str], str | None]) -> str | None:
    """The first of ``names`` the call, looked up with ``header``, leaves out or sends empty."""
    return next((name for name in names if not (header(name) or "").strip()), None)


def credential_refusal(name: str) -> str:
    """Why a call leaving ``name`` out is refused."""
    return (f"this call sends no {name}: every successful call of this tool the capture recorded sent it, and it "
            f"carries credentials or guards the application's requests, without which the application refuses the "
            f"call (401/403, or 400 for a guard header): send {name} as the capture's calls did")


COOKIE = "cookie"


def sent_credentials(names: Iterable[str], header: Callable[[str], str | None],
                     values: Callable[[str], tuple[str, ...]]) -> tuple[str | None, Callable[[str], str | None]]:
    """(the first of ``names`` the call sent more than once with different values, or None; the
    lookup the checks read each of ``names`` with). Cookie headers join with "; ", as HTTP/2 sends
    a client's cookies and as the application reads them: the session cookie in any of them
    counts, so another caller's cannot ride in a second Cookie header behind the principal's. Any
    other credentials header sent twice with different values is refused: the application may
    read either one."""
    wanted = set(names)
    for name in wanted - {COOKIE}:
        if len({v.strip() for v in values(name) if v.strip()}) > 1:
            return name, header
    if COOKIE not in wanted:
        return None, header
    cookies = "; ".join(v for v in values(COOKIE) if v.strip()) or None

    def lookup(name: str) -> str | None:
        return cookies if name.lower() == COOKIE else header(name)
    return None, lookup


def repeated_credential_refusal(name: str) -> str:
    """Why a call sending ``name`` twice with different values is refused."""
    return (f"this call sends {name} more than once, with different values: the application may read either "
            f"one (or refuse the call), so this environment cannot tell which caller asks; send {name} once, as "
            f"the capture's calls did")


def wrong_credential(names: Iterable[str], static: Mapping[str, StaticCredential],
                     header: Callable[[str], str | None], args: Mapping[str, str] | None = None) -> str | None:
    """The first of ``names`` static across the capture that the call sends with a value no
    successful recorded call sent (for a credential bound to a path parameter, none sent with the
    value the call's path arguments ``args`` name there)."""
    for name in names:
        known = static.get(name)
        sent = (header(name) or "").strip()
        if known is None or not sent:
            continue
        if known.bound_to:
            if not _bound_accepted(sent, known, args or {}):
                return name
        elif credential_digest(sent, known.compare, known.cookie) not in known.digests:
            return name
    return None


def _bound_accepted(sent: str, known: StaticCredential, args: Mapping[str, str]) -> bool:
    """A value a successful recorded call sent with the path value this call names (as sent, or
    once percent-decoded); a call naming no value of the parameter is not accepted."""
    given = args.get(known.bound_to)
    if given is None:
        return False
    return any(bound_digest(sent, known.compare, value) in known.digests for value in dict.fromkeys((given, unquote(given))))


def wrong_credential_refusal(name: str, compare: str | None = None, cookie: str = "", bound_to: str = "") -> str:
    """Why a call sending ``name`` with another value than recorded is refused (the recorded value
    is not said: it is a secret)."""
    if compare == COMPARE_SESSION_COOKIE:
        return (f"this call sends {name} without the session cookie {cookie!r} of the caller this environment "
                f"serves, or with another caller's: the capture shows several callers by that cookie, and the "
                f"application refused another caller's calls (401/403) or answers each caller a view of their own; "
                f"the state holds what the capture's principal caller was answered, so this environment accepts only "
                f"that caller's session (authorization is not modelled): send the {cookie} cookie the principal's "
                f"session was given")
    if compare == COMPARE_SIGNED_SHAPE:
        return (f"this call sends {name} with a token of another shape than the capture's: its calls sent tokens "
                f"signed per call, each a JWT with one header and a signature of one length, and the application "
                f"refuses a malformed or otherwise signed token (401); this environment cannot check a signature, "
                f"so it refuses a token not shaped as those: send {name} with a token signed as the capture's were")
    if compare == COMPARE_SIGNED_RECORDED:
        return (f"this call sends {name} with a token no successful recorded call sent: the capture's calls sent "
                f"tokens signed per call, and it records the application refusing a token shaped as theirs (401: "
                f"expired, or signed with another secret); this environment cannot check a signature or an expiry, "
                f"so over HTTP it accepts only a token a recorded successful call sent (its MCP tools carry no "
                f"credential and need none)")
    if bound_to:
        return (f"this call sends {name} with a value this environment does not serve on this path: the capture's "
                f"successful calls sent each of its values with one value of the path's {bound_to!r}, and the "
                f"application refused a value sent with another (401/403: one owner's credentials on another's "
                f"path); this environment accepts only a value the capture's calls sent with this {bound_to}: send "
                f"{name} as the capture's calls on this path did")
    return (f"this call sends {name} with a value this environment does not serve: the state holds what the "
            f"capture's successful calls were answered with the recorded credentials in {name}, and the application "
            f"refuses other values (401/403) or answers another caller a view of their own (their own entities, a "
            f"403 for what they may not see); this environment accepts only the recorded credentials: send {name} "
            f"as the capture's calls did")
