"""How a credentials header's value is compared with the values the capture's successful calls
sent (``StaticCredential``, ``write-credential-values``), on the build side and in serving alike.

Only digests are kept (SHA-256), so neither a bundle nor a refusal holds the secret. A value is
compared whole, its authentication scheme's word in lower case (``Bearer`` and ``bearer`` are one
scheme); HTTP Basic credentials by their decoded ``user:password`` (padding and the scheme's
spelling aside, the same credentials); a token the client signs anew for every call by its
shape (``signed-shape``): the scheme's word, the JWT header it carries and its signature's length,
which every token signed alike shares and a malformed or forged one (a signature of another
length, another algorithm) does not. The signature itself cannot be checked without the secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re

COMPARE_VALUE = "value"
COMPARE_USER_PASSWORD = "user-password"
COMPARE_SIGNED_SHAPE = "signed-shape"
COMPARE_SIGNED_RECORDED = "signed-recorded"
"""Tokens signed per call whose shape the capture shows refused too (expired, another secret):
compared whole, as ``value`` is, so only a token a successful call sent is accepted."""
COMPARE_SESSION_COOKIE = "session-cookie"
"""A Cookie header compared by one cookie's value (``StaticCredential.cookie``, the session cookie
the callers are told apart by); the header's other cookies (a CSRF token) are not compared."""
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")


def _scheme_and_rest(value: str) -> tuple[str, str] | None:
    parts = value.strip().split(None, 1)
    return (parts[0].lower(), parts[1].strip()) if len(parts) == 2 else None


def decoded_user_password(value: str) -> str | None:
    """The ``user:password`` of a Basic credential (``Basic dXNlcjpwdw==``), or None when the
    value holds no base64 text of one."""
    split = _scheme_and_rest(value)
    if split is None:
        return None
    try:
        decoded = base64.b64decode(split[1] + "=" * (-len(split[1]) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return decoded if ":" in decoded else None


def signed_shape(value: str) -> str | None:
    """The shape of a JWT sent as ``<scheme> <header>.<payload>.<signature>``: the scheme's word in
    lower case, the header's JSON object (keys sorted) and the signature's length; None when the
    value is no such token (three base64url parts, a header decoding to a JSON object naming
    ``alg``, a payload decoding to a JSON object, a signature)."""
    split = _scheme_and_rest(value)
    if split is None:
        return None
    parts = split[1].split(".")
    if len(parts) != 3 or not all(_BASE64URL.match(part) for part in parts):
        return None
    try:
        header, payload = (json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
                           for part in parts[:2])
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(header, dict) or "alg" not in header or not isinstance(payload, dict):
        return None
    return f"{split[0]} {json.dumps(header, sort_keys=True)} {len(parts[2])}"


def cookie_values(header: str) -> dict[str, str]:
    """The cookies of a Cookie header (``a=1; b=2``), by name (the first of a name), or of a
    Set-Cookie header (its first pair: ``a=1; Path=/`` names a alone)."""
    found: dict[str, str] = {}
    for pair in header.split(";"):
        name, sep, value = pair.partition("=")
        if sep and name.strip():
            found.setdefault(name.strip(), value.strip().strip('"'))
    return found


def cookie_all_values(header: str) -> dict[str, list[str]]:
    """The cookies of a Cookie header (``a=1; a=2``), by name, with every value sent under it in
    order: a name sent twice may be read either way (many frameworks keep the last)."""
    found: dict[str, list[str]] = {}
    for pair in header.split(";"):
        name, sep, value = pair.partition("=")
        if sep and name.strip():
            found.setdefault(name.strip(), []).append(value.strip().strip('"'))
    return found


def set_cookie_value(header: str) -> tuple[str, str] | None:
    """The cookie a Set-Cookie header sets: (name, value), None when it sets none."""
    name, sep, value = header.split(";", 1)[0].partition("=")
    return (name.strip(), value.strip().strip('"')) if sep and name.strip() else None


def credential_digest(value: str, compare: str, cookie: str = "") -> str | None:
    """The digest a value is compared by (None: a Basic value holding no credentials, a value that
    is no signed token where the capture's were, a Cookie header without the session cookie
    ``cookie``, with it empty, or with it twice holding different values)."""
    if compare == COMPARE_SESSION_COOKIE:
        sessions = set(cookie_all_values(value).get(cookie, ()))
        if len(sessions) != 1:
            return None  # none, or two sessions in one header: the application may take either (the last, often)
        session = sessions.pop()
        if not session:
            return None
        return hashlib.sha256(f"{cookie}={session}".encode("utf-8")).hexdigest()
    if compare == COMPARE_SIGNED_SHAPE:
        shape = signed_shape(value)
        if shape is None:
            return None
        return hashlib.sha256(shape.encode("utf-8")).hexdigest()
    if compare == COMPARE_USER_PASSWORD:
        text = decoded_user_password(value)
        if text is None:
            return None
    else:
        split = _scheme_and_rest(value)
        text = f"{split[0]} {split[1]}" if split is not None else value.strip()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bound_digest(value: str, compare: str, bound_value: str) -> str | None:
    """The digest of a value sent with ``bound_value`` in the path parameter the credential is bound to
    (``StaticCredential.bound_to``: a project's own credentials, accepted only on that project's paths);
    None where ``credential_digest`` gives none."""
    digest = credential_digest(value, compare)
    if digest is None:
        return None
    return hashlib.sha256(f"{bound_value}\n{digest}".encode("utf-8")).hexdigest()


def secret_parts(value: str) -> list[str]:
    """The parts of a value an application could have issued in an answer: the whole value, the
    text after its scheme's word, and a Basic credential's decoded password."""
    parts = [value.strip()]
    split = _scheme_and_rest(value)
    if split is not None:
        parts.append(split[1])
    user_password = decoded_user_password(value)
    if user_password is not None:
        parts.append(user_password.split(":", 1)[1])
    return [p for p in dict.fromkeys(parts) if p]
