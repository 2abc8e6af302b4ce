"""Which body members a plan takes as they were sent, as both sides read them: the build side
judging what the recorded calls sent (``plans/sent_values``, ``plans/stored_text``) and serving
checking a call (``serving/writes``)."""

from __future__ import annotations

from typing import Any

from .json_patch import read_patch
from .models import WritePlan


def chosen_member(plan: WritePlan) -> str | None:
    """The body member a create's chosen identity is sent in (echoed, or copied from the body's
    top level), or None (from the path, or nested)."""
    if plan.chosen_id is None:
        return None
    for rule in plan.fields:
        if rule.field != plan.chosen_id.field:
            continue
        if rule.op == "echo" and "letter_case" not in rule.params:
            return rule.params.get("member")
        pointer = rule.params.get("pointer") if rule.op == "copy" else None
        if isinstance(pointer, str) and pointer.count("/") == 1 and "~" not in pointer:
            return pointer[1:]
    return None


def body_object(plan: WritePlan, body: Any) -> dict[str, Any] | None:
    """A recorded call's body as the plan's members read it: inside the plan's body envelope (an
    object, or a one-object array), the members a JSON Patch sets, or the body itself; None when it
    is no such object (serving refuses such a call, ``writes/checks.unwrap_body``)."""
    if plan.body_patch_ops:
        return read_patch(body, plan.body_patch_ops).members
    if plan.body_envelope:
        inner = body.get(plan.body_envelope) if isinstance(body, dict) else None
        if plan.body_envelope_kind != "object":
            inner = inner[0] if isinstance(inner, list) and len(inner) == 1 else None
        body = inner
    return body if isinstance(body, dict) else None


def member_texts(value: Any) -> list[str]:
    """The texts a member's value stores as sent: the value when it is text, each text element when
    it is an array (a list of tags); text inside objects is not judged (``plans/stored_text``,
    ``serving/writes/stored_text``)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        texts = []
        for element in value:  # a loop: a comprehension makes a function per call
            if isinstance(element, str):
                texts.append(element)
        return texts
    return []
