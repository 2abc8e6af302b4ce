"""Which modelled writes the gate can check (seeds: "The gate", "Writes").

A recorded call whose generated values take another form than serving gives them makes its plan
unexplained-change (``generated_forms``); an update of an unknown entity, or a later update
answering without its entity that no read showing the plan's clocks observes, cannot be checked
and adds nothing.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.item_keys import call_key
from capenv.interpreter.plans.timeline import Timeline, own_collection
from capenv.serving.writes.calls import WriteEnv

from .findings import PlanFindings
from .generated_forms import CreateSite, form_problem


def target_entity(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline) -> tuple[str, str] | None:
    """(type, key) of the entity an update, action or delete call names: its path's last segment
    (an action's, the one before the action segment) decoded, or for a path naming it by a key
    member the identity of the entity the reads before the call showed holding it; None when the
    plan has no type."""
    entity_type = env.types.get(plan.type or "")
    if entity_type is None:
        return None
    return entity_type.name, call_key(timeline, record, plan.address.segments_after_item() if plan.address else 0)


def note_form_problem(plan: WritePlan, recorded: dict[str, Any] | None, site: CreateSite,
                      findings: PlanFindings | None) -> None:
    """A create whose generated values take another form than serving gives them is
    unexplained-change: the first such call is noted, with its trace event."""
    problem = form_problem(plan, recorded, site)
    if problem is not None and findings is not None and findings.unexplained_by is None:
        findings.unexplained_by = problem.record
        findings.notes.append(problem.note())


def updates_unknown_entity(plan: WritePlan, record: Record, env: WriteEnv, unknown: set[tuple[str, str]],
                           timeline: Timeline) -> bool:
    if plan.effect not in ("update", "action"):
        return False
    return target_entity(plan, record, env, timeline) in unknown


def unobserved_later_update(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline,
                             views: dict[str, Any], tool_of: dict[int, str]) -> bool:
    """A later update answering without its entity is observed only by a read whose view shows
    every clock the plan learned: serving stamps them, so only the recorded values can stand in."""
    if plan.effect not in ("update", "action") or record.ordinal == plan.exemplar:
        return False
    if plan.response is not None and plan.response.carries_entity:
        return False
    clocks = {rule.field for rule in plan.fields if "clock" in rule.op}
    if not clocks:
        return False
    target = target_entity(plan, record, env, timeline)
    sighting = timeline.first_after(target[0], target[1], record.ordinal, via=("item",),
                                    collection=own_collection(record.path, env.types[target[0]])) if target else None
    if sighting is None or sighting.value is None:
        return True
    read_view = views.get(tool_of.get(sighting.ordinal, ""))
    shown = set(read_view.shown_fields) if read_view is not None and read_view.shown_fields else set(sighting.value)
    return not clocks <= shown


def sent_members(plan: WritePlan, record: Record) -> frozenset[str]:
    """The members the call's body sent (inside the plan's body envelope, its first element when
    that is an array)."""
    body = record.request.json_value if record.request.is_json else None
    if plan.body_patch_ops:
        return frozenset(read_patch(body, plan.body_patch_ops).members or ())
    if plan.body_envelope and isinstance(body, dict):
        inner = body.get(plan.body_envelope)
        body = inner[0] if isinstance(inner, list) and inner else inner
    return frozenset(body) if isinstance(body, dict) else frozenset()
