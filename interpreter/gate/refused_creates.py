"""An update sending members its type's create was refused with together (write-effects "Not
modelled": inputs the application validates against each other or against other entities).

A create of the update's type refused (a validation failure) for a body sending the members a
successful create sent, of the same JSON kinds, with several of the members the update accepts as numbers in
values no successful create sent and no entity held, which serving's value checks of the create
and of the update would both let through, shows the application judging those members' values in a way
serving does not check (doccano refuses a span whose offsets overlap another span of the
example, or run backwards). An update of the same members would be refused the same way while
serving changed the entity; the verdict table, which picks the statuses and how many members
count, may refuse the plan.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.body_members import body_object
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.jsonvalue import dumps, json_kind
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline

from capenv.serving.writes.calls import WriteRefusal
from capenv.serving.writes.sent_values import check_unproven_values
from capenv.serving.writes.stored_text import check_stored_text
from capenv.serving.writes.validated_values import check_validated_values

from .findings import GateNote, PlanFindings

LOCATION = "interpreter/gate/refused_creates.py:note_refused_create_values"
NUMBERS = ("integer", "number")


def note_refused_create_values(plans: dict[str, WritePlan], records: dict[int, Record],
                               calls_of: dict[str, list[int]], timeline: Timeline,
                               findings: dict[str, PlanFindings]) -> None:
    """Note, on each update plan, its type's refused create calls (record, status, how many of the
    update's members the refused body sent in new values, its members and kinds a success's)."""
    held_of: dict[str, dict[str, set[str]]] = {}  # per type, read once and only for a refused create
    for plan in plans.values():
        if plan.effect != "update" or plan.type is None or plan.tool not in findings:
            continue
        accepted = {m.member for m in plan.members if m.admission != "not-accepted"}
        for create in plans.values():
            if create.effect != "create" or create.type != plan.type:
                continue
            # each call's body as the create's members read it (inside its envelope: {"spans": [{…}]})
            calls = [(records[o], sent) for o in calls_of.get(create.tool, ()) if records[o].request.is_json
                     and (sent := body_object(create, records[o].request.json_value)) is not None]
            successes = [sent for c, sent in calls if c.succeeded]
            for call, refused in calls:
                if call.succeeded or call.status < 400:
                    continue
                if plan.type not in held_of:
                    held_of[plan.type] = _held_values(timeline, plan.type)
                held = held_of[plan.type]
                shared = _shared_members(refused, successes, accepted, held)
                if shared and _serving_takes(create, refused) \
                        and _serving_takes(plan, {m: refused[m] for m in shared}):
                    findings[plan.tool].refused_create_values.append((call.ordinal, call.status, len(shared)))
                    findings[plan.tool].notes.append(GateNote(
                        call.ordinal, f"the application refused this create of {plan.type} ({call.status}) sending "
                        f"{', '.join(sorted(shared))} as numbers no successful create sent, its members and kinds a success's",
                        location=LOCATION))


def _shared_members(refused: dict[str, Any], successes: list[dict[str, Any]], accepted: set[str],
                    held: dict[str, set[str]]) -> set[str]:
    """The update's members the refused body sent as numbers (which an application may order
    against each other: a start after its end, ranges that overlap) in values no successful create
    sent and no entity of the type was read holding, when a successful create sent exactly the refused body's
    members, each of the same JSON kind (so the refusal is about new values, not a missing member,
    another kind or a value taken, a uniqueness ``write-distinct-values`` judges); else nothing."""
    if not any(body.keys() == refused.keys() and all(json_kind(body[m]) == json_kind(refused[m]) for m in body)
               for body in successes):
        return set()
    return {m for m in accepted & refused.keys() if json_kind(refused[m]) in NUMBERS
            and all(body.get(m) != refused[m] for body in successes) and dumps(refused[m]) not in held.get(m, ())}


def _serving_takes(plan: WritePlan, body: dict[str, Any]) -> bool:
    """Serving's value checks of the plan let the body through: no value the plan learned the
    application validates (write-validated-values), keeps to a shape (write-sent-values) or
    stores as text of a class (write-stored-text) is refused, so the refusal is one serving
    would not make."""
    try:
        check_validated_values(plan, body)
        check_unproven_values(plan, body)
        check_stored_text(plan, body)
    except WriteRefusal:
        return False
    return True


def _held_values(timeline: Timeline, type_name: str) -> dict[str, set[str]]:
    """Field -> the JSON texts of the values any read showed an entity of the type holding there."""
    held: dict[str, set[str]] = {}
    for (seen_type, _), sightings in timeline.by_entity.items():
        if seen_type != type_name:
            continue
        for sighting in sightings:
            for name, value in (sighting.value or {}).items():
                held.setdefault(name, set()).add(dumps(value))
    return held
