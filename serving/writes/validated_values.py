"""Refuse a create or update sending a value of a member the application validates that no
recorded call succeeded with (``WritePlan.validated_values``, learned by
``interpreter/plans/validated_values``).

A recorded refusal shows the application refusing some values of the member (PowerDNS's unknown
metadata ``kind``); which others it takes the capture cannot say, so serving accepts only the
recorded successful values and refuses the rest, state unchanged, saying what would be accepted.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import ValidatedValue, WritePlan
from capenv.interpreter.bundle.text_templates import keeps_template
from capenv.interpreter.bundle.value_shapes import shaped_like, value_shape
from capenv.interpreter.bundle.values import same_json

from .calls import WriteRefusal


def check_validated_values(plan: WritePlan, body: dict[str, Any]) -> None:
    """Refuse the call when it sends a validated member's value no recorded call succeeded with."""
    for rule in plan.validated_values:
        if rule.member not in body:
            continue
        value = body[rule.member]
        if rule.by_element:
            if not isinstance(value, list) or not all(any(same_json(e, a) for a in rule.accepted) for e in value):
                raise WriteRefusal(element_refusal_message(rule, value))
        elif rule.layout is not None:
            if not keeps_template(value, rule.layout) and not any(same_json(value, a) for a in rule.accepted):
                raise WriteRefusal(layout_refusal_message(rule, value))
        elif rule.max_length is not None:
            if isinstance(value, str) and len(value) > rule.max_length:
                raise WriteRefusal(length_refusal_message(rule, value))
        elif rule.by_shape:
            if not shaped_like(value, rule.accepted, rule.refused_value):
                raise WriteRefusal(shape_refusal_message(rule, value))
        elif not any(same_json(value, a) for a in rule.accepted):
            raise WriteRefusal(refusal_message(rule, value))


def shape_refusal_message(rule: ValidatedValue, value: Any) -> str:
    shapes = ", ".join(sorted({s for a in rule.accepted if (s := value_shape(a))})) or "none"
    return (f"member {rule.member!r} is {dumps(value).decode()}: the application validates it (recorded call "
            f"{rule.record} was refused {rule.status} for a value shaped otherwise), and this environment accepts "
            f"only values shaped like those a recorded call succeeded with ({shapes})")


def layout_refusal_message(rule: ValidatedValue, value: Any) -> str:
    return (f"member {rule.member!r} is {dumps(value).decode()}: the application validates its layout (recorded "
            f"call {rule.record} was refused {rule.status} for a value of another layout), and this environment "
            f"accepts only text matching {rule.layout}, as every value a recorded call succeeded with did")


def length_refusal_message(rule: ValidatedValue, value: Any) -> str:
    return (f"member {rule.member!r} is {dumps(value).decode()}: the application bounds its length (recorded call "
            f"{rule.record} was refused {rule.status} for a longer text), and this environment accepts only text of "
            f"{rule.max_length} characters or fewer, the longest a recorded call succeeded with")


def element_refusal_message(rule: ValidatedValue, value: Any) -> str:
    accepted = " or ".join(dumps(a).decode() for a in rule.accepted) or "none"
    return (f"member {rule.member!r} is {dumps(value).decode()}: the application validates its elements (recorded "
            f"call {rule.record} was refused {rule.status} for an element no recorded call succeeded with), and this "
            f"environment accepts only an array of elements a recorded call succeeded with: {accepted}")


def refusal_message(rule: ValidatedValue, value: Any) -> str:
    """What was refused, what would be accepted, and why."""
    accepted = (" or ".join(dumps(a).decode() for a in rule.accepted) if rule.accepted
                else "none (no recorded call succeeded sending it)")
    return (f"member {rule.member!r} is {dumps(value).decode()}: the application validates it (recorded call "
            f"{rule.record} was refused {rule.status} for another value), and this environment accepts only the "
            f"values a recorded call succeeded with: {accepted}")
