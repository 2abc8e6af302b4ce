"""Members copied through a reference (``WritePlan.reference_copies`` and ``WritePlan.copied_by``).

A member of type A whose value, in every A entity the capture shows and every recorded answer,
equals a member of the B entity A's reference member names (an item's ``tax_rate``, the ``rate``
of the tax rule its ``tax_rule`` names) is a copy the application keeps: it fills it in when the
A entity is made or re-pointed, and rewrites it when B's member changes. The spec leaves copies in
other collections unmodelled; serving one as a constant answers the exemplar's value for any B, and
serving B's update leaves every copy stale. So:

* a create or update of A that writes the reference member writes the copy from the B entity the
  reference names as the state holds it at call time (``serving/writes/reference_copies``); the
  gate replays the recorded calls through it, so a plan is served only when the capture's own
  reads agree. An update whose rules do not write the copy (no recorded call re-pointed the
  reference) is refused a call that would change it;
* an update of B that changes the copied member while held A entities name the entity is refused,
  state unchanged, naming them (the same value, or an entity nothing names, is served).

Which members copy is judged by the ``reference-copies`` table on every pair the capture shows:
each A sighting (the initial state, every later read and write answer) whose reference names an
entity of B, beside that entity as held just before (``Timeline.held_before``; the initial state's
for the initial A entities). A reference is a top-level scalar member the ``delete-referrers``
table takes for one (``plans/referrers``).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.body_members import body_object
from capenv.interpreter.bundle.models import EntityType, ReferenceCopy, WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.create_values import json_text
from capenv.interpreter.predicates.reference_copies import ReferenceCopyContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .referrers import _WORDS, _Explanations, _Sightings, referrers_judged, sightings

TABLE = "reference-copies"
_HOLDS = ("create", "update", "action", "bulk")
_CHANGES = ("update", "action", "bulk")


def with_reference_copies(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create or update plan with the copies it writes or would leave stale."""
    ctx.plan_of = {p.tool: p for p in plans}
    built = [p for p in plans if p.build_reason is None and p.type is not None and p.effect in _HOLDS
             and not (p.effect == "bulk" and p.bulk_effect == "delete")]
    if not built or TABLE not in ctx.ruleset.tables or not ctx.view.state_available:
        return plans
    try:
        copies, events = _copies(ctx, {p.type for p in built if p.effect in _CHANGES},
                                 {p.type for p in built if p.effect == "create" or p.effect in _CHANGES})
    finally:
        _WORDS.clear()  # the referrers' per-build cache of entity words
    if not copies and not events:
        return plans
    built_ids = {id(p) for p in built}
    out = []
    for plan in plans:
        if id(plan) not in built_ids:
            out.append(plan)
            continue
        written = {f.field for f in plan.fields}
        holds = tuple(c for c in copies if c.holder == plan.type and c.member in written
                      and (c.field in written or plan.effect in _CHANGES) and _copyable(plan, c.field))
        copied_by = tuple(c for c in copies if plan.effect in _CHANGES and c.source_type == plan.type
                          and c.source in written)
        traces = tuple(e for e in events if _concerns(e, plan))
        if not holds and not copied_by and not traces:
            out.append(plan)
            continue
        out.append(plan.model_copy(update={"reference_copies": holds, "copied_by": copied_by,
                                           "traces": plan.traces + traces}))
    return out


def _copyable(plan: WritePlan, field: str) -> bool:
    """The plan's rule for the field stores no value the call sends under that name (an echo): the
    copy replaces what the plan would otherwise answer (a constant, the exemplar's value)."""
    return all(not (f.field == field and f.op == "echo") for f in plan.fields)


def _concerns(event: TraceEvent, plan: WritePlan) -> bool:
    subject = event.subject or ""
    return subject.startswith(f"{plan.type}.") or f"-> {plan.type}." in subject


def _copies(ctx: PlanContext, sources: set[str], holders: set[str]) -> tuple[list[ReferenceCopy], list[TraceEvent]]:
    """Every copy (holder type among ``holders`` or referenced type among ``sources``) the table takes."""
    types = {t.name: t for t in ctx.view.types}
    initial = _initial(ctx)
    entities, explaining = sightings(ctx)
    found: list[ReferenceCopy] = []
    events: list[TraceEvent] = []
    references = {(holder, source): _scalar_references(ctx, holder, types[source], entities, explaining)
                  for holder in sorted(types) for source in sorted(types) if source != holder}
    named_by: dict[tuple[str, str], list[str]] = {}  # (holder, member) -> every type it is taken to name
    for (holder, source), members in references.items():
        for member in members:
            named_by.setdefault((holder, member), []).append(source)
    for holder in sorted(holders | {t for t in types}):
        for source in sorted(types):
            if source == holder or not (holder in holders or source in sources):
                continue
            for member in references[(holder, source)]:
                pairs = _pairs(ctx, types[holder], member, types[source], initial)
                if not pairs:
                    continue
                for (field, copied), equal in _equal_members(pairs, types[holder], member, types[source]).items():
                    context = _context(holder, member, field, source, copied, equal.values, equal.overridden,
                                       named_by.get((holder, member), []))
                    subject = f"{holder}.{field} -> {source}.{copied} (by {member})"
                    decision = evaluate(ctx.ruleset, TABLE, context, subject=subject)
                    if decision.yields.get("copy"):  # a miss is any coincidence two types show: not kept
                        events.extend(decision.events)
                        found.append(ReferenceCopy(holder=holder, member=member, field=field, source_type=source,
                                                   source=copied, proven=bool(decision.yields.get("proven")),
                                                   rule_id=str(decision.rule_id)))
    return found, events


def _scalar_references(ctx: PlanContext, holder: str, source: EntityType, entities: _Sightings,
                       explaining: _Explanations) -> list[str]:
    """The holder's top-level scalar members ``delete-referrers`` takes for references to ``source``,
    whose values name at least one entity ``source`` holds (judged only where they do)."""
    candidates = [m for m in entities.members(holder, source.id_field)
                  if not m.within and m.id_member is None and not m.many]
    held = entities.held(source)
    if not any(text in held for m in candidates for text, _, _ in entities.occurrences(holder, m)):
        return []
    referrers, _ = referrers_judged(ctx, source.name, entities, explaining)
    return sorted({r.member for r in referrers if r.type == holder and not r.within and r.id_member is None
                   and not r.many})


def _initial(ctx: PlanContext) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Per type, per id text, the initial state's values of that id (one per collection holding it)."""
    held: dict[str, dict[str, list[dict[str, Any]]]] = {}
    types = {t.name: t for t in ctx.view.types}
    for collection in ctx.view.state.collections:
        entity_type = types.get(collection.type)
        if entity_type is None:
            continue
        for entity in collection.entities:
            if isinstance(entity.value, dict):
                text = json_text(entity.value.get(entity_type.id_field))
                if text is not None:
                    held.setdefault(collection.type, {}).setdefault(text, []).append(entity.value)
    return held


Pair = tuple[dict[str, Any], dict[str, Any], frozenset[str]]
"""A holder entity's values, the named entity's as held then, and the holder's members a recorded
call sent for that entity at or before the sighting (its own value, not a copy)."""


def _pairs(ctx: PlanContext, holder: EntityType, member: str, source: EntityType,
           initial: dict[str, dict[str, list[dict[str, Any]]]]) -> list[Pair]:
    """Each holder entity the capture shows whose ``member`` names a ``source`` entity, beside that
    entity as held then: the initial state's beside the initial state's (one value of its id only),
    every later sighting beside the entity as held just before it."""
    pairs: list[Pair] = []
    for values in initial.get(holder.name, {}).values():
        for value in values:
            named = _named(value, member)
            sources = initial.get(source.name, {}).get(named, []) if named is not None else []
            if len(sources) == 1:
                pairs.append((value, sources[0], frozenset()))
    timeline = ctx.timeline
    sent = _sent_members(ctx, holder)
    for sightings in (timeline.by_entity, timeline.answers or {}):
        for (type_name, key), seen in sightings.items():
            if type_name != holder.name:
                continue
            for sighting in seen:
                named = _named(sighting.value, member) if isinstance(sighting.value, dict) else None
                if named is None:
                    continue
                own = frozenset(f for o, f in sent.get(key, ()) if o <= sighting.ordinal)
                before = timeline.held_before(source.name, named, sighting.ordinal)
                if before is not None and isinstance(before.value, dict):
                    pairs.append((sighting.value, before.value, own))
                elif before is None and len(initial.get(source.name, {}).get(named, [])) == 1:
                    pairs.append((sighting.value, initial[source.name][named][0], own))
    return pairs


def _sent_members(ctx: PlanContext, holder: EntityType) -> dict[str, list[tuple[int, str]]]:
    """Per holder entity (by id), the members the recorded writes answered with it sent, and when."""
    sent: dict[str, list[tuple[int, str]]] = {}
    for (type_name, key), seen in (ctx.timeline.answers or {}).items():
        if type_name != holder.name:
            continue
        for sighting in seen:
            record = ctx.timeline.records.get(sighting.ordinal)
            body = record.request.json_value if record is not None and record.request.is_json else None
            plan = ctx.plan_of.get(ctx.tool_of.get(sighting.ordinal, ""))
            body = body_object(plan, body) if plan is not None else body  # inside its envelope ({"posts": [{…}]})
            if isinstance(body, dict):
                sent.setdefault(key, []).extend((sighting.ordinal, name) for name in body)
    return sent


def _named(value: dict[str, Any], member: str) -> str | None:
    named = value.get(member)
    if isinstance(named, bool) or not isinstance(named, (str, int)):
        return None
    return json_text(named)


class _Equal:
    """The values of the pairs agreeing on one (holder field, source member), and how many pairs
    disagreed where a recorded call had sent the holder's field itself (its own value)."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.overridden = 0


def _equal_members(pairs: list[Pair], holder: EntityType, member: str,
                   source: EntityType) -> dict[tuple[str, str], _Equal]:
    """(holder field, source member) -> the pairs holding both, for the members equal in every such
    pair but those whose holder a recorded call sent the field for (the first pair with no such call
    proposes them, each later one keeps those it agrees with; a pair holding one of them only, as a
    list projecting fewer members, shows nothing of it)."""
    plain = [p for p in pairs if not p[2]] or pairs
    first_value, first_source, _ = plain[0]
    found = {(f, s): _Equal() for f, v in first_value.items() for s, w in first_source.items()
             if f not in (member, holder.id_field) and s != source.id_field and _shows(v) and same_json(v, w)}
    for value, named, own in pairs:
        for key in list(found):
            field, copied = key
            if field not in value or copied not in named:
                continue
            if same_json(value[field], named[copied]):
                found[key].values.append(value[field])
            elif field in own:
                found[key].overridden += 1
            else:
                del found[key]
    return found


def _shows(value: Any) -> bool:
    """A value that can show a copy: a scalar, not null (null beside null shows nothing)."""
    return value is not None and not isinstance(value, (dict, list))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    return "number"


def _context(holder: str, member: str, field: str, source: str, copied: str,
             values: list[Any], overridden: int = 0, named_types: list[str] | None = None) -> ReferenceCopyContext:
    distinct = {json_text(v) if isinstance(v, (str, int)) and not isinstance(v, bool) else repr(v) for v in values}
    return ReferenceCopyContext(holder=holder, member=member, field=field, source_type=source, source=copied,
                                pairs=len(values) + overridden, equal=len(values), overridden=overridden,
                                distinct=len(distinct), kinds=sorted({_kind(v) for v in values}),
                                named_types=sorted(named_types or []))
