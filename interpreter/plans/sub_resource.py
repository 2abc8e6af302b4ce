"""Whether an item action's calls made a sub-resource (seeds: "Item actions"): such a tool
changes no entity of the type its path names, so its effect stays none."""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.view.extract import path_key

from .context import PlanContext
from .link import entity_in_answer


def sub_resource_call(calls: list[Record], entity_type: EntityType, ctx: PlanContext) -> str | None:
    """Why an item action's call made a sub-resource (then the tool stays none), or None.

    An action answers nothing or its entity: never a 201, and an object holding the id at the
    type's id field, with every field the type's item read always shows."""
    required: set[str] = set()
    for view in ctx.view.views:
        if view.kind == "item" and view.type == entity_type.name:
            required |= set(view.required_fields)
    for call in calls:
        if not call.succeeded:
            continue
        if call.status == 201:
            return f"record {call.ordinal} answered 201: it made a sub-resource"
        body = call.response.json_value if call.response.is_json else None
        if body is None or (not call.response.is_json and not (call.response.text or "").strip()):
            continue
        key = path_key(call.path, 1)  # the segment before the action segment
        entity, _ = entity_in_answer(body, entity_type.id_field, key, ctx.answer_places)
        if entity is None:
            return f"record {call.ordinal} answered something other than the entity {key!r}"
        lacking = sorted(required - set(entity))
        if lacking:
            return f"record {call.ordinal} answered an object lacking {', '.join(lacking)}"
    return None
