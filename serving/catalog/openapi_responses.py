"""The responses of one OpenAPI operation: what the capture recorded for the tool, and capenv's
own refusals.

Each status the tool's recordings answered is one response, with each content type recorded
for it and the first recording of that status and type as the example. Where a state-backed
item or list view renders the answer, the schema of that status is the body's rendered shape
(``tool_meta.rendered_body_schema``: the view's locator and the fields every entity holds);
other JSON answers get no schema beyond their example, since the capture proves no more. The
``default`` response is capenv's error body (a refusal that names what would be accepted, a
path no recording names, a method the path does not serve); a recorded 4xx status recorded
only in another media type also names that error body, since a refusal may answer the same status.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import RecordedCall, Recording

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
    responses: dict[str, Any] = {}
    answered = [(c.ordinal, c.response) for c in calls] + [(r.ordinal, r) for r in absences]
    for ordinal, recording in sorted(answered, key=lambda pair: pair[0]):
        if not 100 <= recording.status <= 599:
            continue  # an unanswered call (status 0) answers nothing
        status = str(recording.status)
        response = responses.setdefault(status, {"description": _description(recording.status, ordinal),
                                                 "content": {}})
        media_type = _media_type(recording.content_type, recording.is_json)
        if (recording.is_json and recording.body is None) or (not recording.is_json and not recording.text):
            continue  # no body (204, or an empty answer, a JSON media type or not): the status alone
        if media_type is None or media_type in response["content"]:
            continue
        media: dict[str, Any] = {}
        if recording.is_json:
            if rendered is not None and 200 <= recording.status < 300:
                media["schema"] = rendered
            if recording.body is not None:
                media["example"] = recording.body
        else:
            media["schema"] = {"type": "string"}
            if recording.text:
                media["example"] = recording.text
        response["content"][media_type] = media
    for status, response in responses.items():
        if not response["content"]:
            del response["content"]
        elif status.startswith("4") and "application/json" not in response["content"]:
            # capenv's own refusals may answer a status the capture recorded in another media type
            # (a 404 refusal beside a recorded text/plain 404): the description names both.
            response["content"]["application/json"] = {"schema": ERROR_SCHEMA}
    responses = dict(sorted(responses.items()))
    responses["default"] = {"description": "capenv refused the call or has no answer recorded for it",
                            "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return responses


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
