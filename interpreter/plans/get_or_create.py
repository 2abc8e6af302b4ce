"""A create tool whose recorded calls answered an entity the state already held (issue 16 item 4):
a get-or-create or an upsert by a key (Prefect's ``POST /api/flows/`` by name, its deployments by
flow and name). Served as a plain create, the same call would make a duplicate with a new id
where the application answers the existing entity, so the plan is left unserved with the reason
until the key is modelled. Such calls are evidence about the tool, not calls to set aside."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.bundle.values import locate, same_spelling

from .context import PlanContext, note
from .link import Link

REASON = "get-or-create"


def answered_held(tool: Tool, link: Link, exemplar: Record, calls: list[Record], ctx: PlanContext,
                  accepted: set[str], envelope: str | None) -> TraceEvent | None:
    """The first successful call after the exemplar that serving would take (the exemplar's path
    arguments, accepted members only) whose answer names, at the place the exemplar's answer named
    its new entity, an id the initial state or an earlier call of the tool held (and no delete
    removed since); None when every such call made a new entity."""
    id_field = link.type.id_field
    held = {str(e.id): "the initial state" for c in ctx.view.state.collections if c.type == link.type.name
            for e in c.entities}
    held.setdefault(str(link.id_value), f"record {exemplar.ordinal}")
    deleted = _deleted(ctx)
    for call in sorted(calls, key=lambda r: r.ordinal):
        if call.ordinal <= exemplar.ordinal or not call.succeeded or not call.response.is_json:
            continue
        value = _answered_id(call.response.json_value, link.locator, id_field)
        if value is None:
            continue
        if call.status == 201:  # a 201 says the call created what it answers (an id reused after a delete)
            held[value] = f"record {call.ordinal}"
            continue
        since = _ordinal(held[value]) if value in held else None
        if since is not None and not any(since < d < call.ordinal for d in deleted.get(value, ())) \
                and _taken(tool, exemplar, call, accepted, envelope):
            return note(tool.name, REASON, (
                f"record {call.ordinal} answered {call.status} with the {link.type.name} whose {id_field!r} is "
                f"{value!r}, which {held[value]} already held: the tool gets or updates an entity by a key its "
                "body names, and served as a plain create the call would make a duplicate"))
        held[value] = f"record {call.ordinal}"
    return None


def _taken(tool: Tool, exemplar: Record, call: Record, accepted: set[str], envelope: str | None) -> bool:
    """Serving would take the call: the exemplar's path arguments (a linked create is tied to
    them) and a body of accepted members only; a call it refuses can make no duplicate."""
    mine, theirs = tool.match(exemplar.path) or {}, tool.match(call.path) or {}
    if any(not same_spelling(mine.get(name, ""), value) for name, value in theirs.items()):
        return False
    body = call.request.json_value if call.request.is_json else None
    if envelope is not None and isinstance(body, dict):
        body = body.get(envelope)
        body = body[0] if isinstance(body, list) and len(body) == 1 else body
    return isinstance(body, dict) and set(body) <= accepted


def _deleted(ctx: PlanContext) -> dict[str, list[int]]:
    """Per id (a path's last segment, decoded), the successful DELETE calls that named it."""
    from urllib.parse import unquote

    from capenv.interpreter.manifest.models import split_path

    found: dict[str, list[int]] = {}
    for record in ctx.records.values():
        if record.method == "DELETE" and record.succeeded and split_path(record.path):
            found.setdefault(unquote(split_path(record.path)[-1]), []).append(record.ordinal)
    return found


def _ordinal(where: str) -> int:
    """The record a held id was answered by (0: the initial state)."""
    return int(where.split()[-1]) if where.startswith("record ") else 0


def _answered_id(body: Any, locator: Locator | None, id_field: str) -> str | None:
    located = locate(body, locator or Locator(kind="root"))
    if isinstance(located, dict) and id_field in located:
        return str(located[id_field])
    if isinstance(body, dict) and id_field in body:
        return str(body[id_field])
    return None
