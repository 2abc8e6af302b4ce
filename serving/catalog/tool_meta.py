"""What a host reads before calling a tool: its title, its behaviour hints and its answer's schema.

MCP hosts decide what to call without asking from a tool's ``annotations`` (MCP 2025-06-18
``ToolAnnotations``) and validate ``structuredContent`` against its ``outputSchema``; both
come from the plan or the view here, never from a guess:

- a read tool only reads (``readOnlyHint``), changes nothing, and repeats the same answer;
- a write tool's effect decides the rest: a create only adds (not destructive), a delete,
  update, item action, bulk or document write changes what was there (destructive); a PUT or
  a document write sends the whole new value, so repeating it changes nothing more
  (``idempotentHint``); a served environment never reaches the outside world
  (``openWorldHint: false``);
- every served answer is ``{status, content_type, body, state | replay}`` (``runtime.structured``);
  where the answer is rendered from the state by an item or list view, the body's shape is the
  view's own (its locator, the fields every rendered entity holds), conditioned on that view
  label so recorded answers (absences, replays) are never held to it.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import Locator, ReadView, WritePlan

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

_VERBS = {"create": "Create", "update": "Update", "delete": "Delete", "action": "Act on",
          "bulk": "Bulk-write", "document": "Write", "none": "Call"}


def tool_title(method: str, template: str, view: ReadView | None, plan: WritePlan | None) -> str:
    """A short human title, e.g. ``Read one "posts" (GET /posts/{id})``."""
    where = f"({method} {template})"
    if plan is not None:
        verb = _VERBS.get(plan.effect, "Call")
        if plan.effect == "bulk" and plan.bulk_effect:
            verb = f"Bulk-{plan.bulk_effect}"
        what = f'"{plan.type}"' if plan.type else ("a document" if plan.effect == "document" else "")
        return " ".join(p for p in (verb, what, where) if p)
    if view is not None and view.type and view.kind == "item":
        return f'Read one "{view.type}" {where}'
    if view is not None and view.type and view.kind == "list":
        return f'List "{view.type}" {where}'
    if view is not None and view.kind == "document":
        return f"Read a document {where}"
    return f"Read {where}"


def tool_annotations(method: str, plan: WritePlan | None, title: str) -> dict[str, Any]:
    """MCP ``ToolAnnotations`` (camelCase, as on the wire) for a read (``plan`` None) or a served write."""
    if plan is None:
        return {"title": title, "readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                "openWorldHint": False}
    effect = plan.bulk_effect if plan.effect == "bulk" and plan.bulk_effect else plan.effect
    return {"title": title, "readOnlyHint": False, "destructiveHint": effect != "create",
            "idempotentHint": method == "PUT" or plan.effect == "document", "openWorldHint": False}


def output_schema(view: ReadView | None) -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) every served answer of the tool validates against."""
    schema: dict[str, Any] = {
        "$schema": JSON_SCHEMA_DIALECT,
        "type": "object",
        "description": "A served answer: the HTTP status, content type and body the application would send, "
                       "and where it came from (state: rendered from or written to the served state; "
                       "replay: a recording of the capture).",
        "properties": {
            "status": {"type": "integer", "minimum": 100, "maximum": 599},
            "content_type": {"type": ["string", "null"]},
            "body": {"description": "The JSON body, or the text of a non-JSON body (null when empty)."},
            "state": {"type": "object", "properties": {"source": {"const": "state"}, "view": {"type": "string"}},
                      "required": ["source", "view"]},
            "replay": {"type": "object", "properties": {"exact_match": {"type": "boolean"},
                                                        "record": {"type": "integer"}},
                       "required": ["exact_match", "record"]},
            "absence": {"type": "object"},
            "projection": {"type": "object"},
        },
        "required": ["status", "content_type", "body"],
        "anyOf": [{"required": ["state"]}, {"required": ["replay"]}],
    }
    shaped = _rendered_body(view)
    if shaped is not None:
        kind, body = shaped
        schema["if"] = {"required": ["state"], "properties": {"state": {"properties": {"view": {"const": kind}},
                                                                         "required": ["view"]}}}
        schema["then"] = {"properties": {"body": body}}
    return schema


def rendered_body_schema(view: ReadView | None) -> dict[str, Any] | None:
    """The JSON Schema of the body an item or list view renders from the state, or None."""
    shaped = _rendered_body(view)
    return shaped[1] if shaped is not None else None


def _rendered_body(view: ReadView | None) -> tuple[str, dict[str, Any]] | None:
    """The body an item or list view renders from the state, wrapped as its locator places it."""
    if view is None or view.kind not in ("item", "list") or not view.type:
        return None
    entity: dict[str, Any] = {"type": "object", "description": f'One "{view.type}" entity.'}
    if view.shown_fields:
        entity["properties"] = {name: {} for name in view.shown_fields}
    # a learned projection answers only the members named, and a line showing its own fields
    # (``fields=uuid,name``) only those: what every answer holds is required
    required = [name for name in view.required_fields
                if all(not line.shown_fields or name in line.shown_fields for line in view.lines)]
    if required and not view.projections:
        entity["required"] = required
    locator = view.locator or Locator(kind="root")
    if view.kind == "list" and locator.kind == "singleton":
        return None  # a list is never the lone element of an array member; no shape is claimed
    placed = entity if view.kind == "item" else {"type": "array", "items": entity}
    return view.kind, _at(locator, placed, view.kind)


def _at(locator: Locator, value: dict[str, Any], kind: str) -> dict[str, Any]:
    if locator.kind == "root" or not locator.member:
        return value
    if locator.kind == "singleton" and kind == "item":
        value = {"type": "array", "items": value, "minItems": 1, "maxItems": 1}
    if locator.omits_empty:  # an empty list is left out of the answer
        value = {**value, "minItems": 1}
        placed = {"type": "object", "properties": {locator.member: value}}
    else:
        placed = {"type": "object", "properties": {locator.member: value}, "required": [locator.member]}
    for name in reversed(locator.within):  # the objects leading to it (Roundup's data.collection)
        placed = {"type": "object", "properties": {name: placed}, "required": [name]}
    return placed
