"""The gate's notes on calls that add nothing to a built plan, with their cause (seeds: "The
gate", "Writes"): serving's refusal of a call the plan does not explain, and the unmodelled write
that made an updated entity unknown; and how every note reaches its plan's traces."""

from __future__ import annotations

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline
from capenv.serving.writes.calls import WriteEnv

from .findings import GateNote, PlanFindings, Tracking
from .unmodelled import made_unknown
from .write_checks import target_entity


UNEXPLAINED = "unexplained"
"""The evidence key marking a recorded call the plan does not explain (``capenv verify`` reads it)."""


def unknown_entity_note(plan: WritePlan, record: Record, env: WriteEnv, track: Tracking,
                        timeline: Timeline) -> GateNote:
    target = target_entity(plan, record, env, timeline)
    cause = made_unknown(track, *target) if target is not None else None
    text = "an update of an unknown entity" + (f", since {cause}" if cause else "")
    return GateNote(record.ordinal, text, location="interpreter/gate/replay.py:run_gate")


def unexplained_call_note(record: Record, findings: PlanFindings, detail: str | None = None) -> GateNote:
    """A call the plan does not explain, with serving's refusal (or ``detail``) when there is one."""
    refusal = findings.refusals.get(record.ordinal)
    text = "the plan does not explain this call" + (f" (serving refuses it: {refusal})" if refusal else "")
    evidence = {UNEXPLAINED: True, **({"refusal": refusal} if refusal else {})}
    return GateNote(record.ordinal, text + (f" ({detail})" if detail else ""), evidence=evidence,
                    location="interpreter/gate/replay.py:_apply")


def with_gate_traces(plans: list[WritePlan], findings: dict[str, PlanFindings]) -> list[WritePlan]:
    """Each plan's traces gain an event per note the gate kept about its calls, in replay order."""
    result = []
    for plan in plans:
        found = findings.get(plan.tool)
        events = tuple(note.event(plan.tool) for note in found.notes) if found else ()
        result.append(plan.model_copy(update={"traces": plan.traces + events}) if events else plan)
    return result
