"""The classes of value a write may not take unproven (``WritePlan.unproven_values``).

The gate proves a plan for the values its recorded calls sent. Where all of them kept to a shape
(no negative number, array elements of one JSON kind, text shaped as an e-mail address or a date),
a value without it is one the capture cannot show the application taking: Prefect answers 422 to
a negative concurrency limit and to tags [1, 2], Strapi 400 to an e-mail address without @. The
``write-sent-values`` table names each such shape per accepted member, and serving refuses a value
without it, state unchanged, saying what it would accept.

Members judged otherwise are left out: a reference (checked against the state), a validated member
(accepted only as recorded), a client-chosen identity (its own shape) and a member accepted only
with its recorded value. Plans with no such shape get no trace, so their bytes stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle.body_members import chosen_member
from capenv.interpreter.bundle.models import UnprovenValue, WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.sent_values import WriteSentValuesContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .references import _calls, _sent_body

TABLE = "write-sent-values"
JUDGED_EFFECTS = ("create", "update", "action", "document")


def with_unproven_values(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built plan with the classes of value its successful calls never sent in its members."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    return [_judged(plan, ctx) if plan.build_reason is None and plan.effect in JUDGED_EFFECTS else plan
            for plan in plans]


def judged_members(plan: WritePlan) -> list[str]:
    """The accepted members whose values are judged here, in member order."""
    skipped = {r.member for r in plan.references} | {v.member for v in plan.validated_values}
    chosen = chosen_member(plan)
    return [m.member for m in plan.members
            if m.admission == "accepted" and m.member not in skipped and m.member != chosen]


def _judged(plan: WritePlan, ctx: PlanContext) -> WritePlan:
    members = judged_members(plan)
    if not members:
        return plan
    bodies = [body for record in _calls(plan, ctx) if record.succeeded
              and (body := _sent_body(record, plan)) is not None]
    unproven: list[UnprovenValue] = []
    events: list[TraceEvent] = []
    entities = _entities(plan.type, ctx) if plan.type is not None else []
    constants = {f.field: f.params.get("value") for f in plan.fields if f.op == "constant"}
    required = {m.member for m in plan.members if m.required}
    for member in members:
        sent: list[Any] = [body[member] for body in bodies if member in body]
        if not sent:
            continue
        held = [value for shown in entities for value in _distinct(v[member] for v in shown if member in v)]
        taken = [body[member] for body in bodies if member in body and required <= set(body)]
        kept = {member, *constants}
        shown = [{k: v for k, v in value.items() if k in kept} for states in entities for value in states
                 if member in value] if constants else []
        decision = evaluate(ctx.ruleset, TABLE, WriteSentValuesContext(sent=sent, member=member, held=held,
                                                                       taken=taken, constants=constants, shown=shown),
                            subject=f"{plan.tool} body.{member}")
        matched = [e for e in decision.events if e.outcome == "match"]
        if not matched:
            continue
        events.extend(decision.events)
        unproven.extend(UnprovenValue(member=member, rule_id=str(e.rule_id), schema_keywords=e.evidence["schema"],
                                      described=e.evidence["described"]) for e in matched)
    if not unproven:
        return plan
    return plan.model_copy(update={"unproven_values": tuple(unproven), "traces": plan.traces + tuple(events)})


def _entities(type_name: str, ctx: PlanContext) -> list[list[dict[str, Any]]]:
    """Per entity of the type the capture shows, every value it was shown holding: the initial
    state's, then each read's."""
    shown: dict[str, list[dict[str, Any]]] = {}
    for collection in ctx.view.state.collections:
        if collection.type == type_name:
            for entity in collection.entities:
                if isinstance(entity.value, dict):
                    shown.setdefault(str(entity.id), []).append(entity.value)
    for (t, key), sightings in ctx.timeline.by_entity.items():
        if t == type_name:
            shown.setdefault(key, []).extend(s.value for s in sightings if isinstance(s.value, dict))
    return list(shown.values())


def _distinct(values: Iterable[Any]) -> list[Any]:
    """The values in first-seen order, each once (JSON equality)."""
    kept: list[Any] = []
    for value in values:
        if not any(same_json(value, k) for k in kept):
            kept.append(value)
    return kept
