"""An update (or item action) the application refused where serving would have applied it (write-effects "Not
modelled": inputs the application validates against state the spec does not model).

A recorded call of a built update plan answered with a refusal that is no absence (a 400 "Collection
is not editable" for a feature of a read-only collection behind the same path template as editable
ones; a 409 for a stale version), while serving, given the state the gate holds just before the
call, would have accepted the same call and answered success: the application changes the entity
only under a condition serving does not check. Served, the update would answer a success the
application refuses; the verdict table, which picks the statuses that count, may refuse the plan
(``verdict.refused-serving-accepts``).
"""

from __future__ import annotations

import copy as copying

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.serving.ops.context import OpRefusal
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv, WriteRefusal, unchecked_header_sent
from capenv.serving.writes.execute import execute
from capenv.serving.writes.generator_state import SequenceState

from .findings import GateNote, PlanFindings

LOCATION = "interpreter/gate/refused_updates.py:note_refused_serving_accepts"
UPDATING = ("update", "action")
"""Effects that change a held entity the path names (an item action is an update of it)."""


def note_refused_serving_accepts(plan: WritePlan, record: Record, serving_env: WriteEnv, copy: StateIndex,
                                 sequences: SequenceState, findings: PlanFindings) -> None:
    """Note the update or action call the application refused that serving would have applied to the state
    the gate holds before it (on a copy of that state: the gate's own copy is left as it is).
    ``serving_env`` checks what serving checks and the gate's replay does not (references, values
    another entity holds, parents' states): a refusal one of those explains is no condition."""
    if plan.effect not in UPDATING or plan.build_reason is not None or record.succeeded \
            or record.status // 100 != 4:
        return  # a 5xx is no refusal: the application failed, and may have applied the call
    if unchecked_header_sent(plan, lambda name: record.header(name, response=False)) is not None:
        return  # serving refuses it before executing
    body = record.request.json_value if record.request.is_json else None
    bodiless = plan.effect == "action" and record.request.retained and not record.request.size
    if body is None and not bodiless:
        return  # no JSON body: serving refuses it (a body that is not an object); an action may send none
    trial = StateIndex.from_snapshot(copy.snapshot())
    try:
        execute(plan, serving_env, WriteCall(record.path, record.query, body, record.request_headers), trial,
                instant=record.started_at, counter=0, sequences=copying.deepcopy(sequences))
    except (WriteRefusal, OpRefusal):  # serving refuses it too (an op's refusal included)
        return
    findings.refused_serving_accepts.append((record.ordinal, record.status))
    findings.notes.append(GateNote(record.ordinal, f"the application refused this {plan.effect} ({record.status}) where "
                                   "serving would have applied it to the state held before it", location=LOCATION))
