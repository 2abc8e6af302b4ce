"""The responses of one OpenAPI operation: what the capture recorded for the tool, and capenv's
own refusals.

Each status the tool's recordings answered is one response, with each content type recorded
for it and the first recording of that status and type as the example; a status recorded
without a body has no content, as serving sends it. Where a state-backed item or list view
renders the answer, the schema of that status is the body's rendered shape
(``tool_meta.rendered_body_schema``: the view's locator and the fields every entity holds), or
any of it and the shape of the recorded bodies it does not fit (``recorded_shapes``: a query
asking for another shape, replayed as recorded); other JSON answers get no schema beyond their
example, since the capture proves no more. The ``default`` response is capenv's error body (a refusal that names what would be accepted, a
path no recording names, a method the path does not serve); a recorded 4xx status recorded
only in another media type also names that error body, since a refusal may answer the same status.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import RecordedCall, Recording

from .recorded_shapes import shape_of_all
from .tool_meta import rendered_body_schema
from .tools import CatalogEntry

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "capenv's refusal: what was wrong and what would be accepted.",
    "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
    "required": ["error", "message"],
}


def operation_responses(entry: CatalogEntry, calls: tuple[RecordedCall, ...],
                        absences: tuple[Recording, ...] = ()) -> dict[str, Any]:
    """``absences``: answers serving gives a call naming an entity the state does not hold that
    this tool's own recordings may not show (a sibling's, a learned one)."""
    rendered = _rendered(entry)
    by_status: dict[int, list[tuple[int, Recording]]] = {}
    answered = [(c.ordinal, c.response) for c in calls] + [(r.ordinal, r) for r in absences]
    for ordinal, recording in sorted(answered, key=lambda pair: pair[0]):
        if 100 <= recording.status <= 599:  # an unanswered call (status 0) answers nothing
            by_status.setdefault(recording.status, []).append((ordinal, recording))
    responses = {str(status): _response(status, recorded, rendered if 200 <= status < 300 else None)
                 for status, recorded in sorted(by_status.items())}
    responses["default"] = {"description": "capenv refused the call or has no answer recorded for it",
                            "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return responses


def _response(status: int, recorded: list[tuple[int, Recording]], rendered: dict[str, Any] | None) -> dict[str, Any]:
    description = _description(status, recorded[0][0])
    refusable = 400 <= status < 500
    if any(_bodiless(r) for _, r in recorded):
        # Serving sends such an answer as recorded, without a body (Redmine's 404 of a missing
        # user); OpenAPI has no way to say a body may be absent, so the status has no content.
        return {"description": description + ", without a body" + (
            "; capenv's own refusal of this status carries its error body (the default response's)"
            if refusable else "")}
    content: dict[str, Any] = {}
    for _, recording in recorded:
        media_type = _media_type(recording.content_type, recording.is_json)
        if media_type is None or media_type in content:
            continue
        if recording.is_json:
            same = [r.body for _, r in recorded
                    if r.is_json and _media_type(r.content_type, r.is_json) == media_type]
            content[media_type] = {**_json_schema(rendered, same), "example": recording.body}
        elif _textual(media_type):
            content[media_type] = {"schema": {"type": "string"}, **({"example": recording.text} if recording.text else {})}
        else:
            # Bytes (an image's file): OpenAPI 3.1 describes binary content by its media type alone;
            # a string schema would make a client validate the bytes it received as text.
            content[media_type] = {}
    if refusable and "application/json" not in content:
        # capenv's own refusals may answer a status the capture recorded in another media type
        # (a 404 refusal beside a recorded text/plain 404): the description names both.
        content["application/json"] = {"schema": ERROR_SCHEMA}
    return {"description": description, **({"content": content} if content else {})}


def _textual(media_type: str) -> bool:
    """Whether answers of this media type are text a string schema describes (text/*, XML)."""
    return media_type.startswith("text/") or media_type.endswith(("/xml", "+xml"))


def _json_schema(rendered: dict[str, Any] | None, bodies: list[Any]) -> dict[str, Any]:
    """The schema of a status's JSON answers: the state-rendered body's where the view renders it,
    beside the shape of each recorded body it does not fit (replayed as recorded: another shape a
    query asks for); no schema where nothing renders, since the capture proves no more."""
    if rendered is None:
        return {}
    fits = Draft202012Validator(rendered).is_valid
    others = shape_of_all(b for b in bodies if not fits(json.loads(dumps(b))))
    return {"schema": rendered if others is None else {"anyOf": [rendered, others]}}


def _bodiless(recording: Recording) -> bool:
    """Sent without a body: not JSON (a JSON ``null`` is a body) and no text."""
    return not recording.is_json and not recording.text


def _rendered(entry: CatalogEntry) -> dict[str, Any] | None:
    if not entry.from_state or entry.handler != "read":
        return None
    return rendered_body_schema(entry.view)


def _description(status: int, ordinal: int) -> str:
    return f"status {status} as the capture recorded it (first in record {ordinal})"


def _media_type(content_type: str | None, is_json: bool) -> str | None:
    if content_type:
        media = content_type.split(";", 1)[0].strip().lower()
        if media:
            return media
    return "application/json" if is_json else None
