"""Judging one changed field of a recorded update call by the ``update-changes`` table (seeds:
"Updates."), and the field rule a decision gives; the calls and inputs are ``update_inputs``."""

from __future__ import annotations

from capenv.interpreter.bundle.models import FieldRule
from capenv.interpreter.bundle.op_params import OP_PARAMS, json_params
from capenv.interpreter.predicates.update_change_context import UpdateChangeContext
from capenv.interpreter.predicates.update_values import same_value
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

from .update_inputs import UpdateCall, UpdateInputs, subject_of

CHANGES_TABLE = "update-changes"


def changed_unsent_fields(call: UpdateCall) -> list[str]:
    """The fields ``call`` changed without sending them, a field it added included when the
    view that observed it had shown the entity."""
    if call.before is None or call.after is None:
        return []
    changed = []
    for name, value in call.after.items():
        if name in call.body:
            continue
        if name in call.before:
            if not same_value(call.before[name], value):
                changed.append(name)
        elif call.observed_view_showed_entity:
            changed.append(name)
    return changed


def change_context(inputs: UpdateInputs, call: UpdateCall, name: str) -> UpdateChangeContext:
    # model_construct: see update_members.member_context.
    return UpdateChangeContext.model_construct(
        field=name, id_field=inputs.id_field, is_action=inputs.is_action, before=call.before,
        after=call.after, body=call.body, started_at=call.started_at, other_entities=inputs.others_for(call),
        later_read=call.later_read)


def judge_change(ruleset: RuleSet, inputs: UpdateInputs, call: UpdateCall, name: str,
                 only: set[str] | None = None) -> Decision:
    return evaluate(ruleset, CHANGES_TABLE, change_context(inputs, call, name),
                    subject=subject_of(name, call, inputs), only=only)


def field_rule_of(name: str, call: UpdateCall, decision: Decision) -> FieldRule:
    evidence = dict(decision.evidence)
    params = json_params(OP_PARAMS[decision.serve].model_validate(evidence.pop("params", {})))
    evidence["ordinal"] = call.ordinal
    return FieldRule(field=name, rule_id=decision.rule_id, op=decision.serve, params=params, evidence=evidence)
