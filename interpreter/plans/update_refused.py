"""Recorded calls of an update that serving would refuse (seeds: "The gate", "Writes": "A modelled
write whose call the plan does not explain brings its entity to the recorded outcome instead,
without attribution").

Such a call (a body that is no JSON object, as a JSON-patch array where the exemplar sent an
object; a member the plan does not accept; a value of another JSON type, or other than the only
value accepted) is one serving refuses, so nothing it shows is a call serving would answer: it
adds no rule and is no evidence that the plan's rules give another value than it recorded. The
checks across calls (``update_call_checks``, ``update_changes._later_changes``) leave it out; the
gate brings its entity to the outcome it recorded. The decision is serving's own
``check_members``, run on the plan's member rules.
"""

from __future__ import annotations

import sys

from capenv.interpreter.bundle.models import MemberRule, WritePlan
from capenv.interpreter.rules_engine import TraceEvent
from capenv.serving.writes.calls import WriteRefusal
from capenv.serving.writes.checks import check_members

from .update_inputs import UpdateInputs
from .update_members import CHECKS_TABLE


def refused_calls(inputs: UpdateInputs, members: list[MemberRule], min_members: int) -> dict[int, str]:
    """Each later call serving would refuse under these member rules (ordinal -> why)."""
    plan = WritePlan.model_construct(members=tuple(members), min_members=min_members)
    nesting = inputs.max_nesting if inputs.max_nesting is not None else sys.maxsize
    refused: dict[int, str] = {}
    for call in inputs.calls[1:]:
        if not call.body_usable:
            refused[call.ordinal] = "its body is no JSON object serving takes"
            continue
        try:
            check_members(plan, call.body, nesting)
        except WriteRefusal as refusal:
            refused[call.ordinal] = refusal.message
    return refused


def refused_event(ordinal: int, why: str) -> TraceEvent:
    return TraceEvent(table=CHECKS_TABLE, rule_id=f"{CHECKS_TABLE}.refused-call", outcome="match",
                      subject=f"update @{ordinal}",
                      reason=f"call {ordinal} is one serving refuses ({why}): it brings its entity to the recorded "
                             "outcome without attribution and is no evidence about the plan's rules",
                      evidence={"ordinal": ordinal, "refusal": why},
                      location="interpreter/plans/update_refused.py:refused_calls")
