"""Builders the ``explain_update`` tests share (no tests here): calls one second apart, and the
checks every plan output must pass (field params valid for their serving op, a traced decision per field)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from capenv.interpreter.bundle.op_params import OP_PARAMS
from capenv.interpreter.plans.update_changes import UpdateCall, UpdateExplanation, UpdateInputs, explain_update
from capenv.interpreter.rules_engine import load_rules

T0 = datetime(2026, 11, 30, 13, 0, 10, 400000, tzinfo=timezone.utc)
RULES = load_rules()


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def iso(seconds: float, fraction_digits: int = 3) -> str:
    moment = at(seconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if fraction_digits:
        text += "." + f"{moment.microsecond:06d}"[:fraction_digits]
    return text + "Z"


def whole_second(seconds: float) -> str:
    """The instant of the second ``T0 + seconds`` falls in, as an application truncating it writes it."""
    return at(seconds).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def call(body: dict[str, Any], before: dict[str, Any] | None, after: dict[str, Any] | None, *, ordinal: int = 10,
         seconds: float = 0, **extra: Any) -> UpdateCall:
    return UpdateCall(body=body, before=before, after=after, started_at=at(seconds), ordinal=ordinal, **extra)


def explain(*calls: UpdateCall, method: str = "PATCH", is_action: bool = False, id_field: str = "id",
            path_id: str = "1", type_entities: list[dict[str, Any]] | None = None) -> UpdateExplanation:
    inputs = UpdateInputs(method=method, is_action=is_action, id_field=id_field, path_id=path_id, calls=list(calls),
                          type_entities=type_entities or [])
    explanation = explain_update(RULES, inputs)
    for rule in explanation.fields:
        OP_PARAMS[rule.op].model_validate(rule.params)  # the serving contract
        assert any(e.rule_id == rule.rule_id and e.outcome == "match" for e in explanation.events), rule
    return explanation


def field(explanation: UpdateExplanation, name: str):
    found = [rule for rule in explanation.fields if rule.field == name]
    assert found, f"no field rule for {name}: {[r.field for r in explanation.fields]}"
    return found[0]


def member(explanation: UpdateExplanation, name: str):
    found = [rule for rule in explanation.members if rule.member == name]
    assert found, f"no member rule for {name}: {[m.member for m in explanation.members]}"
    return found[0]


def checks(explanation: UpdateExplanation) -> set[str]:
    return {problem.check for problem in explanation.problems}
