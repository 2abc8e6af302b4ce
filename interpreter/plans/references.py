"""Which body members of a create or update name another type's entity by its id, and what a
value naming none does (``WritePlan.references``).

An application may refuse a comment naming no post (PocketBase answers 400) or store it as sent
(json-server). A member is a reference when the values the tool's successful calls sent are ids
the capture shows entities of one other type holding (``write-references``; the type the member's
name names when a type's path agrees with it). What a dangling value does is read from the tool's
recorded calls (``write-reference-dangling``): a success sending one shows the application accepts
it, so serving stores any value; otherwise serving refuses a value naming no held entity, whether a
recorded refusal shows the application refusing it or no recorded call shows what it does, since
an answer the application would not give is worse than a refusal that says why. A blank value
(null, "", the ``plans`` setting ``reference_blank_values``) names nothing: it is accepted as sent
when a recorded success sent it, and refused like a dangling value otherwise.

Only members serving accepts with a scalar of the JSON kind an id has (a string or an integer), or
with a list of such scalars (a submission's ``tags``: each element is judged as a value, and a
dangling one makes the list dangling), are judged, and only those some other type holds one of the
values of: the others get no trace, so a plan with no reference keeps the bytes it had.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.bundle.models import EntityType, MemberRule, ReferenceRule, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.create_values import json_text
from capenv.interpreter.predicates.write_references import (DanglingCall, ReferenceCandidate,
                                                             WriteReferenceContext, WriteReferenceDanglingContext)
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .timeline import Timeline

REFERENCES = "write-references"
DANGLING = "write-reference-dangling"
JUDGED_EFFECTS = ("create", "update", "action")
ID_KINDS = ("string", "integer")
LIST_KIND = "array"


def with_references(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create or update plan with the references its members make, and their traces."""
    if REFERENCES not in ctx.ruleset.tables or DANGLING not in ctx.ruleset.tables:
        return plans
    known: dict[str, set[str]] | None = None
    judged = []
    for plan in plans:
        members = _judged_members(plan)
        if not members:
            judged.append(plan)
            continue
        if known is None:  # built once, when the first plan has members to judge
            known = known_ids(ctx.timeline)
        judged.append(_with_references(plan, members, ctx, known))
    return judged


def _judged_members(plan: WritePlan) -> list[MemberRule]:
    if plan.effect not in JUDGED_EFFECTS or plan.build_reason is not None or plan.type is None:
        return []
    return [m for m in plan.members if m.admission != "not-accepted" and (m.kind in ID_KINDS or m.kind == LIST_KIND)]


def known_ids(timeline: Timeline) -> dict[str, set[str]]:
    """Per type, every id the capture shows an entity holding: the initial state, reads and write answers."""
    known: dict[str, set[str]] = {}
    for (type_name, _), ids in timeline.initial_ids.items():
        known.setdefault(type_name, set()).update(ids)
    for sightings in (timeline.by_entity, timeline.answers or {}):
        for (type_name, key), seen in sightings.items():
            if any(s.value is not None for s in seen):
                known.setdefault(type_name, set()).add(key)
    return known


def _with_references(plan: WritePlan, members: list[MemberRule], ctx: PlanContext,
                     known: dict[str, set[str]]) -> WritePlan:
    blanks = list(ctx.ruleset.setting("plans", "reference_blank_values"))
    calls = [(record, body) for record in _calls(plan, ctx) if (body := _sent_body(record, plan)) is not None]
    others = [t for t in ctx.view.types if t.name != plan.type]
    references: list[ReferenceRule] = []
    events: list[TraceEvent] = []
    for member in members:
        sent = [(record, body[member.member]) for record, body in calls if member.member in body]
        many = member.kind == LIST_KIND
        if many and not all(isinstance(v, list) and all(json_text(e) is not None for e in v) for _, v in sent):
            continue  # a list of other things than ids (objects, nulls) names no entity by each element
        values = list(dict.fromkeys(text for record, value in sent if record.succeeded and not _blank(value, blanks)
                                    for element in (value if many else [value])
                                    if (text := json_text(element)) is not None))
        first_sent: dict[str, int] = {}
        for record, value in sent:
            if record.succeeded and not _blank(value, blanks):
                for element in (value if many else [value]):
                    if (text := json_text(element)) is not None:
                        first_sent[text] = min(first_sent.get(text, record.ordinal), record.ordinal)
        candidates = [_candidate(t, values, known.get(t.name, set()), _made(ctx.timeline, t.name, first_sent))
                      for t in others]
        if not any(c.holds for c in candidates):
            continue  # no other type holds any of its values: no evidence to judge
        subject = f"{plan.tool} body.{member.member}"
        decision = evaluate(ctx.ruleset, REFERENCES, WriteReferenceContext(member=member.member, values=values,
                                                                           types=candidates), subject=subject)
        events.extend(decision.events)
        if not decision.yields.get("reference"):
            continue
        target = next(t for t in others if t.name == decision.evidence.get("type"))
        references.append(_dangling_rule(plan, member.member, target, str(decision.rule_id), sent, blanks, ctx,
                                         subject, events, many=many))
    if not events:
        return plan
    return plan.model_copy(update={"references": tuple(references), "traces": plan.traces + tuple(events)})


def _candidate(target: EntityType, values: list[str], ids: set[str], made: list[str]) -> ReferenceCandidate:
    holds = [v for v in values if v in ids]
    return ReferenceCandidate(name=target.name, words=_words(target), holds=holds, ids=sorted(ids) if holds else [],
                              made=made)


def _made(timeline: Timeline, type_name: str, first_sent: dict[str, int]) -> list[str]:
    """The values naming the entity of the type the capture's writes made last before the first
    successful call sending the value (an id the initial state did not hold, first shown by a read
    or a write's answer, no other entity first shown between): the client named what it was just
    answered."""
    made = _made_entities(timeline)
    found = []
    for text, ordinal in first_sent.items():
        last = next((entity for at, entity in reversed(made) if at < ordinal), None)
        if last == (type_name, text):
            found.append(text)
    return found


def _made_entities(timeline: Timeline) -> list[tuple[int, tuple[str, str]]]:
    """Each entity the capture's writes made (an id the initial state did not hold), by the ordinal
    of the read or write answer first showing it, in order."""
    initial: dict[str, set[str]] = {}
    for (name, _), ids in timeline.initial_ids.items():
        initial.setdefault(name, set()).update(ids)
    first: dict[tuple[str, str], int] = {}
    for sightings in (timeline.by_entity, timeline.answers or {}):
        for entity, seen in sightings.items():
            shown = [s.ordinal for s in seen if s.value is not None]
            if shown and entity[1] not in initial.get(entity[0], set()):
                first[entity] = min(first.get(entity, min(shown)), min(shown))
    return sorted((ordinal, entity) for entity, ordinal in first.items())


def _dangling_rule(plan: WritePlan, member: str, target: EntityType, rule_id: str, sent: list[tuple[Record, Any]],
                   blanks: list[Any], ctx: PlanContext, subject: str, events: list[TraceEvent], *,
                   many: bool = False) -> ReferenceRule:
    """What a value naming no entity does, from the tool's recorded calls that sent the member (a
    list names held entities when each of its elements does)."""
    calls = []
    for record, value in sent:
        texts = [json_text(element) for element in (value if many else [value])]
        held = all(text is not None and _held_when(ctx.timeline, target.name, text, record.ordinal) for text in texts)
        made = None
        if not held and record.succeeded:
            made = next((shown for text in texts if text is not None
                         and (shown := _made_by_call(ctx, target, text, record.ordinal)) is not None), None)
        calls.append(DanglingCall(ordinal=record.ordinal, status=record.status, value=value,
                                  blank=_blank(value, blanks), held=held, shown_after=made))
    decision = evaluate(ctx.ruleset, DANGLING, WriteReferenceDanglingContext(member=member, type=target.name,
                                                                             calls=calls), subject=subject)
    events.extend(decision.events)
    accepted_blanks = []
    for call in calls:
        if call.blank and 200 <= call.status < 300 and not any(same_json(call.value, b) for b in accepted_blanks):
            accepted_blanks.append(call.value)
    return ReferenceRule(member=member, type=target.name, collection_template=target.collection_template,
                         rule_id=rule_id, dangling=decision.yields.get("dangling", "unrecorded"),
                         dangling_rule_id=decision.rule_id, record=decision.evidence.get("record"),
                         blanks=tuple(accepted_blanks), many=many)


def _made_by_call(ctx: PlanContext, target: EntityType, key: str, ordinal: int) -> int | None:
    """The read after the call that first shows the referenced type holding an entity with that id
    (the call named it while the capture showed none held), when no write at that type's collection
    ran between: the call itself made it (a tag that exists by being named). None otherwise."""
    if _held_when(ctx.timeline, target.name, key, ordinal):
        return None
    shown = ctx.timeline.first_after(target.name, key, ordinal)
    if shown is None or shown.value is None:
        return None
    template = split_path(target.collection_template)
    for write in ctx.write_ordinals:
        if ordinal < write < shown.ordinal:
            parts = split_path(ctx.records[write].path)
            if len(parts) >= len(template) and all(t.startswith("{") or t == p for t, p in zip(template, parts)):
                return None  # a write of the type's own may have made it
    return shown.ordinal


def _held_when(timeline: Timeline, type_name: str, key: str, ordinal: int) -> bool:
    """Whether the capture shows an entity of the type holding that id when the call began."""
    sighting = timeline.held_before(type_name, key, ordinal)
    return sighting is not None and sighting.value is not None


def _calls(plan: WritePlan, ctx: PlanContext) -> list[Record]:
    tool = ctx.manifest.tool(plan.tool)
    return [ctx.records[o] for o in tool.record_ordinals if ctx.records[o].answered]


def _sent_body(record: Record, plan: WritePlan) -> dict[str, Any] | None:
    """The object a recorded call sent, unwrapped from the plan's envelope as serving unwraps it."""
    body = record.request.json_value if record.request.is_json else None
    if plan.body_patch_ops:
        return read_patch(body, plan.body_patch_ops).members
    if plan.body_envelope and isinstance(body, dict) and list(body) == [plan.body_envelope]:
        inner = body[plan.body_envelope]
        if plan.body_envelope_kind == "array":
            inner = inner[0] if isinstance(inner, list) and len(inner) == 1 else None
        body = inner
    return body if isinstance(body, dict) else None


def _blank(value: Any, blanks: list[Any]) -> bool:
    return any(same_json(value, blank) for blank in blanks)


def _words(entity_type: EntityType) -> list[str]:
    """The literal segments of the type's collection path."""
    return [s for s in split_path(entity_type.collection_template) if not s.startswith("{")]
