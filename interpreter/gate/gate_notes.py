"""The gate's notes on calls that add nothing to a built plan, with their cause (seeds: "The
gate", "Writes"): serving's refusal of a call the plan does not explain, and the unmodelled write
that made an updated entity unknown. Explanation only: the verdict's evidence lists them."""

from __future__ import annotations

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.serving.writes import WriteEnv

from .findings import PlanFindings, Tracking
from .unmodelled import made_unknown
from .write_checks import _target_entity


def unknown_entity_note(plan: WritePlan, record: Record, env: WriteEnv, track: Tracking) -> str:
    note = f"record {record.ordinal}: an update of an unknown entity"
    target = _target_entity(plan, record, env)
    cause = made_unknown(track, *target) if target is not None else None
    return f"{note}, since {cause}" if cause else note


def unexplained_call_note(record: Record, findings: PlanFindings) -> str:
    note = f"record {record.ordinal}: the plan does not explain this call"
    refusal = findings.refusals.get(record.ordinal)
    return f"{note} (serving refuses it: {refusal})" if refusal else note
