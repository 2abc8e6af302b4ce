"""Whether an update tool's query names the members it applies, by the ``update-masks`` table
(``WritePlan.update_mask``): judged for each parameter its exemplar sent, the first that matches."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.models import UpdateMask
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.update_masks import UpdateMaskContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "update-masks"


def update_mask_of(tool: str, calls: list[Record], exemplar: Record, members_of: Any, ruleset: RuleSet,
                   events: list[TraceEvent]) -> UpdateMask | None:
    """``members_of(call)``: the body members a call sends (its object's, or a JSON Patch's)."""
    succeeded = [call for call in calls if call.succeeded]
    if TABLE not in ruleset.tables or not succeeded:
        return None
    for name, _ in exemplar.query:
        param = unquote_plus(name)
        context = UpdateMaskContext(param=param, calls=tuple(
            (_value(call, param), tuple(members_of(call))) for call in succeeded))
        decision = evaluate(ruleset, TABLE, context, subject=f"{tool} query {param}")
        if decision.yields.get("mask"):
            events.extend(decision.events)
            return UpdateMask(param=name, separator=str(decision.evidence["separator"]), rule_id=str(decision.rule_id))
    return None


def _value(call: Record, param: str) -> str | None:
    for name, value in call.query:
        if unquote_plus(name) == param:
            return unquote_plus(value)
    return None
