"""JSON values as both sides read them: the value at a view's locator, equality by JSON value,
and whether two path segments spell the same thing. The build side proves views and plans with
these and serving answers with them, so they live in the hand-over, below both."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, unquote_to_bytes

from capenv.interpreter.bundle.models import Locator


MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()


def locate(body: Any, locator: Locator) -> Any:
    """The value at ``locator`` in ``body``, or MISSING."""
    if locator.kind == "root":
        return body
    for name in locator.within:
        body = body.get(name, MISSING) if isinstance(body, dict) else MISSING
    if not isinstance(body, dict) or locator.member not in body:
        return [] if locator.omits_empty and isinstance(body, dict) else MISSING
    value = body[locator.member]
    if locator.kind == "member":
        return value
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return MISSING


def same_json(left: Any, right: Any) -> bool:
    """Equal by JSON value; object member order ignored, array order kept, bool is not 1."""
    kind = type(left)
    if kind is str:  # the usual member: only a string equals a string (what the steps below conclude)
        return isinstance(right, str) and left == right
    if kind is int and type(right) is int:  # two integers, neither a bool
        return left == right
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, dict):
        return isinstance(right, dict) and left.keys() == right.keys() and all(
            same_json(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return isinstance(right, list) and len(left) == len(right) and all(
            same_json(a, b) for a, b in zip(left, right))
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, str) or isinstance(right, str):
        return isinstance(left, str) and isinstance(right, str) and left == right
    return left == right


def holds_at_any_depth(whole: Any, part: Any, same: Callable[[Any, Any], bool] = operator.eq) -> bool:
    """Whether ``part`` is ``whole`` or a value nested inside it, at any depth, as ``same`` compares
    values (equality, unless a caller's own: UUIDs in either letter case)."""
    if same(whole, part):
        return True
    if isinstance(whole, dict):
        return any(holds_at_any_depth(v, part, same) for v in whole.values())
    if isinstance(whole, list):
        return any(holds_at_any_depth(v, part, same) for v in whole)
    return False


def decode_once(text: str) -> str:
    return unquote(text) if "%" in text else text


def spelling_key(segment: str) -> bytes:
    """What a path segment names once the application percent-decodes it, as it does, once: the
    bytes, so two segments name the same thing exactly when their keys are equal. A segment is
    never compared with another's decoded text: ``%252F`` names the text "%2F" (a virtual host of
    that name, which the application answers 404 for where none is), not the "/" ``%2F`` names."""
    raw = segment.encode("utf-8", "surrogatepass")
    return unquote_to_bytes(raw) if "%" in segment else raw


def same_spelling(a: str, b: str) -> bool:
    """Two path segments name the same thing: verbatim, or both once percent-decoded."""
    return a == b or spelling_key(a) == spelling_key(b)


_ECMA_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def spelling_pattern(recorded: str) -> str:
    """The segments ``same_spelling`` takes as ``recorded``, as a JSON Schema ``pattern`` (ECMA-262,
    valid with or without the ``u`` flag): the recorded segment verbatim, or the text it names with
    any of its characters percent-encoded (either hex case; a "%" only as "%25")."""
    value = decode_once(recorded)
    alternatives = ["".join(_literal(c) for c in recorded), "".join(_either(c) for c in value)]
    return "^(?:" + "|".join(dict.fromkeys(alternatives)) + ")$"


def _literal(character: str) -> str:
    return "\\" + character if character in _ECMA_SYNTAX else character


def _encoded(data: bytes) -> str:
    return "".join("%" + "".join(f"[{d}{d.lower()}]" if d.isalpha() else d for d in f"{b:02X}") for b in data)


def _either(character: str) -> str:
    if character == "%":
        return _encoded(b"%")
    return f"(?:{_literal(character)}|{_encoded(character.encode('utf-8', 'surrogatepass'))})"


_INTEGER_ID = re.compile(r"0|-?[1-9][0-9]*")
_UUID_ID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def id_shape(value: str) -> str:
    """The shape an application may check an id against before looking it up: ``integer``
    (written without leading zeros, any length), ``uuid``, else its ``token_shape``."""
    if _INTEGER_ID.fullmatch(value):
        return "integer"
    if _UUID_ID.fullmatch(value):
        return "uuid"
    return token_shape(value)


def token_shape(value: str) -> str:
    """Length and alphabet of a value: ``t6cu5l28akg4mky`` -> ``15:0a`` (``0`` digits, ``a`` lower
    case letters, ``A`` upper case letters, any other character as itself)."""
    classes = {"0" if c.isdigit() else "a" if c.islower() else "A" if c.isupper() else c for c in value}
    return f"{len(value)}:{''.join(sorted(classes))}"


_ENTITY_TAG = re.compile(r'(?:W/)?"([^"]+)"')


def entity_tag_opaque(value: Any) -> str | None:
    """The opaque part of an HTTP entity tag held as a string member (``"\\"3f2a…\\""``,
    ``W/"…"``: Mailman's ``http_etag``, Google APIs' ``etag``), or None. The quotes are the
    tag's syntax, not its value, so the tag is judged as the token inside."""
    if not isinstance(value, str):
        return None
    found = _ENTITY_TAG.fullmatch(value)
    return found.group(1) if found else None
