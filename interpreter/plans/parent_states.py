"""The parent states a create under a parent entity is served under (``WritePlan.parent_states``).

A create whose path lies below its parent's item path (``/images/{id}/members``) is modelled as
accepted under any parent the state holds. Applications often accept it only in some states of
the parent (Glance adds members only to a shared image, 403 otherwise), and the gate proves the
plan only under the parents its recorded calls named. The ``create-parent-states`` table judges
each member of the parent type from every parent the capture shows and the parent as held just
before each successful recorded create (``Timeline.held_before``); a matched member lists the
words serving accepts (``serving/writes/parent_states``). Plans with no match keep their bytes.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType, ParentState, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.predicates.parent_states import CreateParent, CreateParentStatesContext, ParentValue
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .references import _calls

TABLE = "create-parent-states"


def with_parent_states(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create under a parent with the parent states it is served under."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    out = []
    for plan in plans:
        judged = _judged(plan, ctx) if plan.effect == "create" and plan.build_reason is None else None
        out.append(plan if judged is None or not judged[0] else plan.model_copy(
            update={"parent_states": judged[0], "traces": plan.traces + tuple(judged[1])}))
    return out


def parent_of(path: str, types: list[EntityType] | tuple[EntityType, ...]) -> tuple[EntityType, str] | None:
    """The deepest entity type whose item path the path lies below, with the id the path names it by."""
    parts = split_path(path)
    found = None
    for entity_type in types:
        item = split_path(entity_type.item_template) if entity_type.item_template else []
        if not item or len(item) >= len(parts) or not all(
                piece.startswith("{") or piece == part for piece, part in zip(item, parts)):
            continue
        if found is None or len(item) > len(split_path(found[0].item_template or "")):
            found = (entity_type, unquote(parts[len(item) - 1]))
    return found


def _judged(plan: WritePlan, ctx: PlanContext) -> tuple[tuple[ParentState, ...], list[TraceEvent]] | None:
    calls = _calls(plan, ctx)
    succeeded = [r for r in calls if r.succeeded]
    named = [(r, parent_of(r.path, ctx.view.types)) for r in succeeded]
    if not named or any(parent is None for _, parent in named):
        return None
    parent_type = named[0][1][0]  # type: ignore[index]
    if any(parent[0].name != parent_type.name for _, parent in named):  # type: ignore[index]
        return None
    before = {r.ordinal: ctx.timeline.held_before(parent_type.name, parent[1], r.ordinal)  # type: ignore[index]
              for r, parent in named}
    refused = {}
    for record in calls:
        parent = parent_of(record.path, ctx.view.types) if 400 <= record.status < 500 else None
        if parent is not None and parent[0].name == parent_type.name:
            sighting = ctx.timeline.held_before(parent_type.name, parent[1], record.ordinal)
            if sighting is not None and sighting.value is not None:
                refused[record.ordinal] = (record.status, sighting.value)
    seen = _parents_seen(ctx, parent_type)
    members = sorted({m for s in before.values() if s is not None and s.value
                      for m, v in s.value.items() if isinstance(v, str)})
    states: list[ParentState] = []
    events: list[TraceEvent] = []
    for member in members:
        parents = _parent_values(seen, member)
        creates = [CreateParent(ordinal=o, known=s is not None and s.value is not None and member in s.value,
                                value=s.value.get(member) if s is not None and s.value else None)
                   for o, s in before.items()]
        refusals = [CreateParent(ordinal=o, status=status, known=member in value, value=value.get(member))
                    for o, (status, value) in refused.items()]
        decision = evaluate(ctx.ruleset, TABLE, CreateParentStatesContext(
            parent_type=parent_type.name, member=member, parents=parents, creates=creates, refused=refusals),
            subject=f"{plan.tool} {parent_type.name}.{member}")
        matched = [e for e in decision.events if e.outcome == "match"]
        if matched:  # either rule names the same words: one state per member
            events.extend(decision.events)
            first = matched[0]
            states.append(ParentState(rule_id=str(first.rule_id), parent_type=parent_type.name, member=member,
                                      values=tuple(first.evidence["values"]), described=first.evidence["described"]))
    return tuple(states), events


def _parents_seen(ctx: PlanContext, parent_type: EntityType) -> dict[str, list[dict[str, Any]]]:
    """Per parent key, every value of it the capture shows: the initial state and each later sighting."""
    seen: dict[str, list[dict[str, Any]]] = {}
    for collection in ctx.view.state.collections:
        if collection.type == parent_type.name:
            for entity in collection.entities:
                seen.setdefault(str(entity.id), []).append(entity.value)
    for (type_name, key), sightings in ctx.timeline.by_entity.items():
        if type_name == parent_type.name:
            seen.setdefault(key, []).extend(s.value for s in sightings if isinstance(s.value, dict))
    return seen


def _parent_values(seen: dict[str, list[dict[str, Any]]], member: str) -> list[ParentValue]:
    """Each parent's distinct values of the member; one no sighting shows holding it lacks it (a
    list may show fewer fields than an item read)."""
    out: list[ParentValue] = []
    for key, values in seen.items():
        if not values:
            continue  # only read absent
        held = {repr(v[member]): v[member] for v in values if member in v}
        if not held:
            out.append(ParentValue(key=key, held=False))
        out.extend(ParentValue(key=key, value=value) for value in held.values())
    return out
