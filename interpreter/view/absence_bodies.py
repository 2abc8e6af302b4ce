"""What an absence answer's body holds: its kind, the values that carry the id the read named,
and the values that change per response (docs/absence.md says what serving does with each)."""

from __future__ import annotations

import re
from typing import Any

from capenv.interpreter.bundle.pointers import MISSING, escape_token, resolve_text
from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.evidence.records import Record

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_INTEGER = re.compile(r"0|-?[1-9][0-9]*")
_MISSING = object()


def body_kind(record: Record) -> str:
    """null, empty-object, object, array, scalar (JSON), text, or none (no body)."""
    if not record.response.is_json:
        return "text" if record.response.text else "none"
    value = record.response.json_value
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "object" if value else "empty-object"
    if isinstance(value, list):
        return "array"
    return "scalar"


def counts_nothing(value: Any) -> bool:
    """An object whose every leaf is 0, false, an empty text, array or object: a result counting
    nothing (``{"raw": [], "affected": 0}``, ``{"deletedCount": 0}``), which names no entity."""
    if isinstance(value, dict):
        return bool(value) and all(counts_nothing(v) or v in ([], {}, "") for v in value.values())
    if isinstance(value, list):
        return not value
    return value is False or (type(value) in (int, float) and value == 0) or value == ""


def entity_place_kind(record: Record, locator: Locator | None) -> str:
    """``body_kind``, except that a body whose envelope member holds an empty array where the item
    view reads its entity (``{"result": {"value": []}}`` for ``result.value[0]``) is empty-array: the
    envelope answered, holding nothing; and one whose envelope member holds an empty object on the
    way to it (``{"data": {}}`` for ``data.collection``) is empty-object, as the bare ``{}`` is, and
    one holding null there (``{"data": null}``) is null."""
    kind = body_kind(record)
    if kind != "object" or locator is None or locator.kind not in ("member", "singleton"):
        return kind
    value: Any = record.response.json_value
    for name in (*locator.within, locator.member):
        held = isinstance(value, dict) and name in value
        value = value.get(name) if isinstance(value, dict) else None
        if value == {}:
            return "empty-object"
        if held and value is None:
            # the envelope holds null on the way to the entity (``{"data": null}``), as a bare null
            # body answers an id held by nothing
            return "null"
    return "empty-array" if value == [] else kind


def leaves(value: Any, pointer: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for name, member in value.items()
                for leaf in leaves(member, f"{pointer}/{_escape(str(name))}")]
    if isinstance(value, list):
        return [leaf for index, member in enumerate(value) for leaf in leaves(member, f"{pointer}/{index}")]
    return [(pointer, value)]


def _escape(name: str) -> str:
    return escape_token(name)


def at_pointer(value: Any, pointer: str) -> Any:
    """The value at ``pointer`` (RFC 6901, ``bundle/pointers``), or ``_MISSING``."""
    found = resolve_text(value, pointer)
    return _MISSING if found is MISSING else found


def carries_id(value: Any, id_value: str | None) -> bool:
    """The value is the id, or text holding it as a delimited token (ids of 4+ characters only:
    a short id may stand in unrelated text)."""
    if not id_value:
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return id_value.isdigit() and value == int(id_value)
    if not isinstance(value, str):
        return False
    if value == id_value:
        return True
    if len(id_value) < 4:
        return False
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(id_value)}(?![A-Za-z0-9])", value) is not None


def id_pointers(body: Any, id_value: str | None) -> tuple[str, ...]:
    return tuple(pointer for pointer, value in leaves(body) if carries_id(value, id_value))


def same_layout(a: Any, b: Any) -> bool:
    """Two bodies with the same members at the same places (their values aside)."""
    return [p for p, _ in leaves(a)] == [p for p, _ in leaves(b)]


def _generated(value: Any) -> bool:
    """A value an application makes per response: a UUID, an instant, a number."""
    if isinstance(value, str):
        return _UUID.search(value) is not None or _INSTANT.match(value) is not None
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def per_response_pointers(body: Any, alike: list[Any], ids: tuple[str, ...]) -> tuple[str, ...]:
    """Values that look generated (a UUID other than the id, an instant, a number) and differ
    between two bodies of one layout that answered an absence, and UUIDs other than the id even
    when one body shows them (a request id, an error instance): no later answer repeats them."""
    found = []
    for pointer, value in leaves(body):
        if pointer in ids or not _generated(value):
            continue
        varies = any(same_layout(other, body) and at_pointer(other, pointer) != value for other in alike)
        if varies or (isinstance(value, str) and _UUID.search(value) is not None):
            found.append(pointer)
    return tuple(found)


def worded_alike(a: Any, a_values: tuple[str, ...], b: Any, b_values: tuple[str, ...]) -> bool:
    """Two absence bodies that say the same once each one's own path values are put aside: the same
    layout, and at every place the same value, or per-response values (a UUID, an instant, a number)
    in both, or texts that read alike around the path values each names."""
    if not same_layout(a, b):
        return False
    theirs = dict(leaves(b))
    for pointer, value in leaves(a):
        other = theirs[pointer]
        if value == other or (_generated(value) and _generated(other)):
            continue
        if not (isinstance(value, str) and isinstance(other, str)):
            return False
        if _without(value, a_values) != _without(other, b_values):
            return False
    return True


def id_shape(value: str | None) -> str:
    """integer (no leading zeros), uuid, or other: ids of different shapes may be answered apart."""
    text = value or ""
    if _INTEGER.fullmatch(text):
        return "integer"
    return "uuid" if _UUID.fullmatch(text) else "other"


def _without(text: str, values: tuple[str, ...]) -> str:
    """The text with each value put aside wherever it stands as a delimited token. Any length,
    unlike carries_id: each text is compared with one naming its own read's values in its place."""
    for value in sorted((v for v in values if v), key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", "\0", text)
    return text
