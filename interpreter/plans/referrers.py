"""Which members of the state's entities name the entities a delete removes (``WritePlan.referrers``).

The spec models a delete as removing the entity alone and leaves referential rules unmodelled: an
application may delete an issue's time entries with it, clear a comment's post, or refuse to
delete a referenced tracker. Serving a delete of an entity something refers to would then answer
every later read of the referring entities as if nothing happened, a wrong answer; so serving
refuses exactly those deletes (``serving/writes/referrers``) and keeps serving the others, which
are what the capture showed. Which members refer is read from every entity the capture shows
(the initial state and each later sighting), one top-level member of one type at a time, by the
``delete-referrers`` table: a member naming the type, or object values repeating the entity they
name. Only members holding an id the deleted type's entities hold are judged, so a plan with no
referrer keeps the bytes it had.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from capenv.interpreter.bundle.models import EntityType, Referrer, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.create_values import json_text
from capenv.interpreter.predicates.delete_referrers import DeleteReferrerContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext

TABLE = "delete-referrers"
MIN_PROJECTED_MEMBERS = 2
"""An object repeating fewer members of its entity (the id alone) shows no more than an id does."""


def with_referrers(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built delete plan with the members naming its type's entities, and their traces."""
    deletes = {id(p) for p in plans if p.effect == "delete" and p.type is not None and p.build_reason is None}
    if not deletes or TABLE not in ctx.ruleset.tables:
        return plans
    entities = _entities_seen(ctx)
    judged: dict[str, tuple[tuple[Referrer, ...], tuple[TraceEvent, ...]]] = {}
    out = []
    for plan in plans:
        if id(plan) not in deletes:
            out.append(plan)
            continue
        if plan.type not in judged:
            judged[plan.type] = _referrers_of(ctx, plan.type, entities)
        referrers, events = judged[plan.type]
        if not events:
            out.append(plan)
            continue
        out.append(plan.model_copy(update={"referrers": referrers, "traces": plan.traces + events}))
    return out


def _entities_seen(ctx: PlanContext) -> dict[str, list[dict[str, Any]]]:
    """Per type, every entity value the capture shows: the initial state and each later sighting."""
    seen: dict[str, list[dict[str, Any]]] = {}
    for collection in ctx.view.state.collections:
        seen.setdefault(collection.type, []).extend(e.value for e in collection.entities if isinstance(e.value, dict))
    for sightings in (ctx.timeline.by_entity, ctx.timeline.answers or {}):
        for (type_name, _), values in sightings.items():
            seen.setdefault(type_name, []).extend(s.value for s in values if isinstance(s.value, dict))
    return seen


def _referrers_of(ctx: PlanContext, type_name: str, entities: dict[str, list[dict[str, Any]]]
                  ) -> tuple[tuple[Referrer, ...], tuple[TraceEvent, ...]]:
    target = next(t for t in ctx.view.types if t.name == type_name)
    held = _held_by_id(target, entities.get(type_name, []))
    if not held:
        return (), ()
    words = own_words(target)
    referrers: list[Referrer] = []
    events: list[TraceEvent] = []
    for other in ctx.view.types:
        for member, id_member in _candidate_members(entities.get(other.name, []), target.id_field):
            context = _context(entities.get(other.name, []), member, id_member, target, words, held)
            if not context.held:
                continue  # names no entity of the type: nothing to judge
            decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{other.name}.{member} -> {type_name}")
            events.extend(decision.events)
            if decision.yields.get("referrer"):
                referrers.append(Referrer(type=other.name, member=member, id_member=id_member,
                                          rule_id=str(decision.rule_id)))
    return tuple(referrers), tuple(events)


def own_words(entity_type: EntityType) -> list[str]:
    """The literal segments of the type's collection path that no parameter follows: a word a
    parameter follows names a parent collection (``projects`` of ``/projects/{project_id}/versions``)."""
    segments = split_path(entity_type.collection_template)
    return [s for i, s in enumerate(segments) if not s.startswith("{")
            and not (i + 1 < len(segments) and segments[i + 1].startswith("{"))]


def _held_by_id(target: EntityType, values: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per id, every value the capture shows the entity holding (a rename shows two)."""
    held: dict[str, list[dict[str, Any]]] = {}
    for value in values:
        text = json_text(value.get(target.id_field))
        if text is not None:
            held.setdefault(text, []).append(value)
    return held


def _candidate_members(values: list[dict[str, Any]], id_field: str) -> Iterator[tuple[str, str | None]]:
    """Each top-level member holding scalars, and each holding objects with the identity field."""
    scalars, objects = set(), set()
    for value in values:
        for member, inner in value.items():
            if isinstance(inner, dict) and id_field in inner:
                objects.add(member)
            elif isinstance(inner, (str, int)) and not isinstance(inner, bool):
                scalars.add(member)
    for member in sorted(objects):
        yield member, id_field
    for member in sorted(scalars - objects):
        yield member, None


def _context(values: list[dict[str, Any]], member: str, id_member: str | None, target: EntityType,
             words: list[str], held: dict[str, list[dict[str, Any]]]) -> DeleteReferrerContext:
    named: dict[str, None] = {}
    objects = projections = 0
    for value in values:
        inner = value.get(member)
        if id_member is not None:
            if not isinstance(inner, dict):
                continue
            text = json_text(inner.get(id_member))
        else:
            text = json_text(inner) if isinstance(inner, (str, int)) and not isinstance(inner, bool) else None
        if text is None:
            continue
        named[text] = None
        if id_member is not None and text in held:
            objects += 1
            if len(inner) >= MIN_PROJECTED_MEMBERS and any(
                    all(k in entity and same_json(v, entity[k]) for k, v in inner.items()) for entity in held[text]):
                projections += 1
    return DeleteReferrerContext(member=member, id_member=id_member, type_words=words, values=list(named),
                                 held=[t for t in named if t in held], objects=objects, projections=projections)
