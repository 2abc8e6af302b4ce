"""Recorded calls of an update that serving would refuse (seeds: "The gate", "Writes": "A modelled
write whose call the plan does not explain brings its entity to the recorded outcome instead,
without attribution").

Such a call (a body that is no JSON object, as a JSON-patch array where the exemplar sent an
object; a member the plan does not accept; a value of another JSON type, or other than the only
value accepted) is one serving refuses, so nothing it shows is a call serving would answer: it
adds no rule and is no evidence that the plan's rules give another value than it recorded. The
checks across calls (``update_call_checks``, ``update_changes._later_changes``) leave it out; the
gate brings its entity to the outcome it recorded. The decision follows serving's
``check_members`` on the plan's member rules (plans may not import serving).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import MemberRule
from capenv.interpreter.rules_engine import TraceEvent

from .update_inputs import UpdateInputs
from .update_members import CHECKS_TABLE


def refused_calls(inputs: UpdateInputs, members: list[MemberRule], min_members: int) -> dict[int, str]:
    """Each later call serving would refuse under these member rules (ordinal -> why), as
    serving's ``check_members`` refuses a body (plans do not import serving: the layers forbid it)."""
    rules = {m.member: m for m in members}
    refused: dict[int, str] = {}
    for call in inputs.calls[1:]:
        why = "its body is no JSON object serving takes" if not call.body_usable else _refusal(call.body, rules,
                                                                                                min_members)
        if why is not None:
            refused[call.ordinal] = why
    return refused


def _refusal(body: dict[str, Any], rules: dict[str, MemberRule], min_members: int) -> str | None:
    for name, value in body.items():
        rule = rules.get(name)
        if rule is None or rule.admission == "not-accepted":
            accepted = sorted(m for m, r in rules.items() if r.admission != "not-accepted")
            return f"member {name!r} is not accepted; accepted members: {', '.join(accepted) or 'none'}"
        kind = json_kind(value)
        if rule.kind is not None and not (kind == rule.kind or (rule.kind == "number" and kind == "integer")
                                          or (kind == "null" and rule.nullable)):
            return f"member {name!r} must be a JSON {rule.kind}, not {kind}"
        if rule.admission == "recorded-only" and value != rule.recorded_value:
            return f"member {name!r} is accepted only with its recorded value"
    missing = [m for m, r in rules.items() if r.required and m not in body]
    if missing:
        return f"missing required member(s): {', '.join(missing)}"
    if min_members and sum(1 for name in body if name in rules) < min_members:
        return f"send at least {min_members} member(s)"
    return None


def refused_event(ordinal: int, why: str) -> TraceEvent:
    return TraceEvent(table=CHECKS_TABLE, rule_id=f"{CHECKS_TABLE}.refused-call", outcome="match",
                      subject=f"update @{ordinal}",
                      reason=f"call {ordinal} is one serving refuses ({why}): it brings its entity to the recorded "
                             "outcome without attribution and is no evidence about the plan's rules",
                      evidence={"ordinal": ordinal, "refusal": why},
                      location="interpreter/plans/update_refused.py:refused_calls")
