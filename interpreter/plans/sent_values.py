"""The classes of value a write may not take unproven (``WritePlan.unproven_values``).

The gate proves a plan for the values its recorded calls sent. Where all of them kept to a shape
(no negative number, array elements of one JSON kind, text shaped as an e-mail address or a date),
a value without it is one the capture cannot show the application taking: Prefect answers 422 to
a negative concurrency limit and to tags [1, 2], Strapi 400 to an e-mail address without @. The
``write-sent-values`` table names each such shape per accepted member, and serving refuses a value
without it, state unchanged, saying what it would accept.

Members nested in a judged member (an object member's members, the members of an array's object
elements: Unleash's strategy ``parameters[].type``) are judged by the same table, by their own name,
against the values the type's entities are shown holding at the same place; a match's keywords are
wrapped to reach them (``items``, ``properties``), so serving and the published schema check them
inside the top member (Unleash answers 400 to a strategy parameter of type ``bogus``).

Members judged otherwise are left out: a reference (checked against the state), a validated member
(accepted only as recorded), a client-chosen identity (its own shape) and a member accepted only
with its recorded value. Plans with no such shape get no trace, so their bytes stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle.body_members import chosen_member
from capenv.interpreter.bundle.jsonvalue import canonical
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
    judged = [plan for plan in plans if plan.build_reason is None and plan.effect in JUDGED_EFFECTS]
    siblings: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for plan in judged:
        if plan.type is not None:
            siblings.setdefault(plan.type, []).extend((plan.tool, body) for body in _bodies(plan, ctx))
    return [_judged(plan, ctx, [body for tool, body in siblings.get(plan.type or "", []) if tool != plan.tool])
            if any(plan is j for j in judged) else plan for plan in plans]


def _bodies(plan: WritePlan, ctx: PlanContext) -> list[dict[str, Any]]:
    """The objects the plan's successful recorded calls sent."""
    return [body for record in _calls(plan, ctx) if record.succeeded
            and (body := _sent_body(record, plan)) is not None]


def judged_members(plan: WritePlan) -> list[str]:
    """The accepted members whose values are judged here, in member order."""
    skipped = {r.member for r in plan.references} | {v.member for v in plan.validated_values}
    chosen = chosen_member(plan)
    return [m.member for m in plan.members
            if m.admission == "accepted" and m.member not in skipped and m.member != chosen]


def _judged(plan: WritePlan, ctx: PlanContext, others: list[dict[str, Any]]) -> WritePlan:
    """``others``: the bodies the type's other judged tools' successful calls sent."""
    members = judged_members(plan)
    if not members:
        return plan
    bodies = _bodies(plan, ctx)
    unproven: list[UnprovenValue] = []
    events: list[TraceEvent] = []
    entities = _entities(plan.type, ctx) if plan.type is not None else []
    # each entity's values once (every list read shows an unchanged entity again): a later copy's
    # member value is its first copy's, so each member's distinct values keep their order
    entity_values = [_once(states) for states in entities]
    constants = {f.field: f.params.get("value") for f in plan.fields if f.op == "constant"}
    required = {m.member for m in plan.members if m.required}
    keys = _item_keys(plan.type, ctx)
    for member in members:
        sent: list[Any] = [body[member] for body in bodies if member in body]
        if not sent:
            continue
        held = [value for shown in entity_values for value in _distinct(v[member] for v in shown if member in v)]
        taken = [body[member] for body in bodies if member in body and required <= set(body)]
        kept = {member, *constants}
        shown = [{k: v for k, v in value.items() if k in kept} for states in entities for value in states
                 if member in value] if constants else []
        decision = evaluate(ctx.ruleset, TABLE, WriteSentValuesContext(sent=sent, member=member, held=held,
                                                                       taken=taken, constants=constants, shown=shown,
                                                                       item_key=member in keys),
                            subject=f"{plan.tool} body.{member}")
        matched = [e for e in decision.events if e.outcome == "match"]
        if not matched:
            continue
        events.extend(decision.events)
        unproven.extend(UnprovenValue(member=member, rule_id=str(e.rule_id), schema_keywords=e.evidence["schema"],
                                      described=e.evidence["described"]) for e in matched)
    for member in members:
        found, found_events = _nested(plan, ctx, member, bodies, others, entity_values)
        unproven.extend(found)
        events.extend(found_events)
    if not unproven:
        return plan
    return plan.model_copy(update={"unproven_values": tuple(unproven), "traces": plan.traces + tuple(events)})


Step = str | None
"""One step into a value: a member's name, or None for every element of an array."""


def _nested(plan: WritePlan, ctx: PlanContext, member: str, bodies: list[dict[str, Any]],
            others: list[dict[str, Any]], entities: list[list[dict[str, Any]]]
            ) -> tuple[list[UnprovenValue], list[TraceEvent]]:
    """The classes of value the members nested in ``member`` were always sent in: each judged by
    its own name against the values the type's entities hold at the same place (one entity's
    distinct values once), its keywords wrapped to reach it from the top member. A nested member
    the tool's calls never sent (an update always sending ``parameters: []``) takes the values
    the type's other tools sent there (the create's): the member holds the same field, and an
    element no call of its own showed is no more proven."""
    sent = _sent_inside(member, bodies)
    for path, values in _sent_inside(member, others).items():
        sent.setdefault(path, values)
    unproven: list[UnprovenValue] = []
    events: list[TraceEvent] = []
    if not sent:
        return unproven, events
    # each state's nested members walked once, not once per place sent
    walks = [[list(_inside(state[member], ())) for state in states if member in state] for states in entities]
    for path, values in sent.items():
        held = [value for walked in walks for value in _distinct(
            found for inside in walked for at, found in inside if at == path)]
        name = str(path[-1])
        where = _spelled(member, path)
        decision = evaluate(ctx.ruleset, TABLE, WriteSentValuesContext(sent=values, member=name, held=held),
                            subject=f"{plan.tool} body.{where}")
        matched = [e for e in decision.events if e.outcome == "match"]
        if not matched:
            continue
        events.extend(decision.events)
        unproven.extend(UnprovenValue(member=member, rule_id=str(e.rule_id),
                                      schema_keywords=_reaching(path, e.evidence["schema"]),
                                      described=f"a value whose {where} is {e.evidence['described']}") for e in matched)
    return unproven, events


def _sent_inside(member: str, bodies: list[dict[str, Any]]) -> dict[tuple[Step, ...], list[Any]]:
    """Per place nested in ``member``, the values the bodies sent there."""
    sent: dict[tuple[Step, ...], list[Any]] = {}
    for body in bodies:
        if member in body:
            for path, value in _inside(body[member], ()):
                sent.setdefault(path, []).append(value)
    return sent


def _inside(value: Any, path: tuple[Step, ...]) -> Iterable[tuple[tuple[Step, ...], Any]]:
    """Every member nested in ``value`` (an object's members, an array's object elements' members,
    and theirs in turn), with the steps reaching it."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key), inner
            yield from _inside(inner, (*path, key))
    elif isinstance(value, list):
        for element in value:
            if isinstance(element, dict):
                yield from _inside(element, (*path, None))


def _reaching(path: tuple[Step, ...], keywords: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema keywords applying ``keywords`` to the member the steps reach from the top member."""
    for step in reversed(path):
        keywords = {"items": keywords} if step is None else {"properties": {step: keywords}}
    return keywords


def _spelled(member: str, path: tuple[Step, ...]) -> str:
    """The nested member as a refusal names it (``parameters[].type``)."""
    return member + "".join("[]" if step is None else f".{step}" for step in path)


def _item_keys(type_name: str | None, ctx: PlanContext) -> set[str]:
    """The members naming the type's entity in its item path beside its identity: the either-key
    member (``view-either-keys``) and the fields item tools are addressed by."""
    keys: set[str] = set()
    for entity_type in ctx.view.types:
        if entity_type.name == type_name:
            keys.update(entity_type.key_fields.values())
            if entity_type.either_key is not None:
                keys.add(entity_type.either_key.member)
    return keys


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


def _once(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each value once (the same canonical JSON), in first-seen order."""
    kept: dict[bytes, dict[str, Any]] = {}
    for value in values:
        kept.setdefault(canonical(value), value)
    return list(kept.values())


def _distinct(values: Iterable[Any]) -> list[Any]:
    """The values in first-seen order, each once (JSON equality)."""
    kept: list[Any] = []
    for value in values:
        if not any(same_json(value, k) for k in kept):
            kept.append(value)
    return kept
