"""The exemplar (a plan's first successful call) and whether its request body can enter state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.bundle.jsonvalue import JsonError, ProtoMemberError, loads
from capenv.interpreter.evidence.bodies import is_json_media_type
from capenv.interpreter.evidence.records import Record


@dataclass(frozen=True)
class BodyVerdict:
    body: dict[str, Any] | None
    """The usable body object, envelope unwrapped (``{}`` for a call without a body)."""
    envelope: str | None = None
    problem: str | None = None
    envelope_kind: str = "array"


def exemplar_of(records: list[Record]) -> Record | None:
    """The first successful call whose answer the capture kept, else the first successful call."""
    succeeded = [r for r in records if r.succeeded]
    return next((r for r in succeeded if r.response.retained), succeeded[0] if succeeded else None)


def admit_body(record: Record, *, max_bytes: int, unwrap: bool, envelope: Any = None,
               patch_ops: tuple[str, ...] = ()) -> BodyVerdict:
    """A request body that could enter the state: a JSON object, JSON media type, complete
    UTF-8 within the size limit, exact numbers, no ``__proto__``; else the problem.
    ``patch_ops``: the body is a JSON Patch of these operations, read as the members it sets."""
    if record.method == "DELETE":
        return BodyVerdict({})
    request = record.request
    if not request.retained:
        return BodyVerdict(None, problem="the capture did not retain the request body"
                                         + (f": {request.note}" if request.note else ""))
    if request.text is None or request.text.strip() == "":
        if request.binary:
            return BodyVerdict(None, problem="the request body is not UTF-8 text")
        return BodyVerdict({})
    if request.size > max_bytes:
        return BodyVerdict(None, problem=f"the request body is {request.size} bytes, past {max_bytes}")
    if not is_json_media_type(request.mime_type):
        return BodyVerdict(None, problem=f"the request body's media type {request.mime_type!r} is not JSON")
    try:
        body = loads(request.text, allow_proto=False)
    except ProtoMemberError:
        return BodyVerdict(None, problem="the request body holds a __proto__ member")
    except JsonError as exc:
        return BodyVerdict(None, problem=f"the request body is not JSON ({exc})")
    if patch_ops:
        reading = read_patch(body, patch_ops)
        if reading.members is None:
            return BodyVerdict(None, problem=f"the JSON Patch is not served: {reading.problem}")
        body = reading.members
    if not isinstance(body, dict):
        return BodyVerdict(None, problem="the request body is not a JSON object")
    if not _exact(body):
        return BodyVerdict(None, problem="the request body holds a number that is not exact")
    if unwrap and len(body) == 1 and envelope is not None and not patch_ops:
        (member, value), = body.items()
        kind = envelope(member, value)
        if kind == "array" and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            return BodyVerdict(value[0], envelope=member, envelope_kind="array")
        if kind == "object" and isinstance(value, dict):
            return BodyVerdict(value, envelope=member, envelope_kind="object")
        if kind is not None:
            return BodyVerdict(None, problem=f"the body's {member!r} does not wrap one object as the exemplar's does")
    return BodyVerdict(body)


def _exact(value: Any) -> bool:
    from capenv.interpreter.bundle.jsonvalue import is_exact

    return is_exact(value)
