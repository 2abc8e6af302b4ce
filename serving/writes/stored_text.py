"""Text a write refuses in a member it stores as sent (``WritePlan.unproven_text``).

The ``write-stored-text`` table names each text class no recorded call sent in such a member (markup,
white space around the text, an empty string, ...): how the application stores it, the capture
cannot show (WordPress escapes ``&`` and strips tags). The input schema says it as a ``not`` of
one ``pattern`` per class (``schema``), so validation refuses a member's text holding one; this
check refuses the same in the same words, for calls that reach it another way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from capenv.interpreter.bundle.body_members import member_texts
from capenv.interpreter.bundle.models import UnprovenText, WritePlan
from capenv.interpreter.bundle.schema_precheck import any_pattern

from .calls import WriteRefusal


def refusal(member: str, described: str) -> str:
    return (f"member {member!r} holds {described}, which no recorded call sent: the capture cannot show how the "
            f"application stores such text (it may escape, strip, trim or refuse it); other text is accepted")


def schema(unproven: list[UnprovenText]) -> dict[str, Any]:
    """The ``not`` keyword of a member refusing these classes in its text, one option per class
    (a value that is no string, ``null`` say, is none of them)."""
    return {"type": "string", "anyOf": [{"pattern": u.pattern, "description": u.described} for u in unproven]}


def class_held(refused: dict[str, Any], text: Any) -> str | None:
    """Which class of a member's ``not`` (``schema``) the text holds, described."""
    if not isinstance(text, str) or not isinstance(refused, dict):
        return None
    return next((option.get("description", option["pattern"]) for option in refused.get("anyOf", ())
                 if "pattern" in option and _text_class(option["pattern"]).search(text)), None)


TextClasses = tuple[tuple[str, Callable[[str], bool]], ...]
"""Per member a plan stores as sent, whether a text holds any class it refuses (``compile_classes``)."""


def compile_classes(plan: WritePlan) -> TextClasses:
    """The plan's refused text classes as one search per member (``any_pattern``), made once per
    plan (``plans.PlanParts``): a served create of json-server's posts searched its four members'
    text twelve times, one compiled pattern looked up per class."""
    by_member: dict[str, list[str]] = {}
    for unproven in plan.unproven_text:
        by_member.setdefault(unproven.member, []).append(unproven.pattern)
    return tuple((member, any_pattern(patterns)) for member, patterns in by_member.items())


def check_stored_text(plan: WritePlan, body: dict[str, Any], classes: TextClasses | None = None) -> None:
    """Refuse text of a class no recorded call sent in a member the plan stores as sent (the
    member's value, or each text element of an array: ``member_texts``). ``classes``: the plan's
    ``compile_classes``; text holding none of them is let through at once, and the one that does
    is judged class by class below, so the refusal names the first class as before."""
    if classes is not None:
        found = False
        for member, holds in classes:  # loops, not ``any`` of a generator (a function and a generator per member)
            for text in member_texts(body.get(member)):
                if holds(text):
                    found = True
                    break
            if found:
                break
        else:
            return
    for unproven in plan.unproven_text:
        if any(_text_class(unproven.pattern).search(text) for text in member_texts(body.get(unproven.member))):
            raise WriteRefusal(refusal(unproven.member, unproven.described))


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a pattern is compiled again when it was let go).
@lru_cache(maxsize=64)
def _text_class(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)
