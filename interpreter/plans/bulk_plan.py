"""A bulk write's plan (seeds: "Bulk writes"): the entities its body names, the members it admits,
and for a bulk update the read that shows what it sent. The pieces live in ``bulk``."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.rules_engine import TraceEvent

from .bulk import (
    address_of, admit_bulk_body, admit_members, applied_members, observe_update, response_fits, same_address,
)
from .context import PlanContext, note


def bulk_plan(tool: Tool, entity_type: EntityType, exemplar: Record, calls: list[Record], ctx: PlanContext,
              base: dict[str, Any], events: list[TraceEvent], bulk_effect: str) -> WritePlan:
    """A bulk write: the entities its body names, every successful call naming them the same way,
    an answer serving can give for any ids, and for an update the read that shows what it sent."""
    body, problem = admit_bulk_body(exemplar, ctx.budgets.max_body_bytes)
    named = address_of(ctx.ruleset, body, entity_type, f"{tool.name} body") if body is not None else None
    if named is not None:
        events.extend(named.events)
    if named is None or named.address is None:
        events.append(note(tool.name, "body-unusable", problem or named.problem))
        return WritePlan(**base, build_reason="body-unusable", traces=tuple(events))
    address, ids = named.address, named.ids
    for call in calls[1:]:
        if not call.succeeded:
            continue
        other_body, problem = admit_bulk_body(call, ctx.budgets.max_body_bytes)
        other = address_of(ctx.ruleset, other_body, entity_type, f"{tool.name} record {call.ordinal} body").address \
            if other_body is not None else None
        if other is None or not same_address(address, other):
            events.append(note(tool.name, "body-unusable",
                                f"record {call.ordinal} names its entities otherwise{': ' + problem if problem else ''}"))
            return WritePlan(**base, address=address, build_reason="body-unusable", traces=tuple(events))
    has_body = bool((exemplar.response.text or "").strip())
    unusable = response_fits(exemplar.response.json_value if exemplar.response.is_json else None, has_body, ids,
                             entity_type.id_field)
    if unusable:
        events.append(note(tool.name, "body-unusable", unusable))
        return WritePlan(**base, address=address, build_reason="body-unusable", traces=tuple(events))
    members, fields, member_events = admit_members(ctx.ruleset, body, address, entity_type.id_field,
                                                   f"{tool.name} {entity_type.name}", bulk_effect)
    events.extend(member_events)
    base["effect"] = "bulk"
    observation = None
    if bulk_effect == "update":  # a delete needs no observation: a later read's absence checks it
        seen = observe_update(ctx.timeline, entity_type.name, applied_members(body, address, entity_type.id_field,
                                                                              fields), exemplar.ordinal,
                              lambda first, last: ctx.other_write_between(tool.name, first, last))
        if seen.ordinal is None:
            events.append(note(tool.name, "no-observation", seen.problem))
            return WritePlan(**base, address=address, fields=tuple(fields), members=tuple(members),
                             bulk_effect=bulk_effect, build_reason="no-observation", traces=tuple(events))
        events.append(TraceEvent(table="plans", rule_id=None, outcome="match", subject=tool.name,
                                 reason=f"observation: record {seen.ordinal} shows entities "
                                        f"{', '.join(seen.shown)} with the members the call sent"))
        observation = seen.ordinal
    return WritePlan(**base, address=address, fields=tuple(fields), members=tuple(members),
                     observation=observation, bulk_effect=bulk_effect, traces=tuple(events))
