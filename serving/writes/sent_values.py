"""Refuse a create or update sending a value of a class no successful recorded call sent in the
member, where every one kept to a shape (``WritePlan.unproven_values``, learned by
``interpreter/plans/sent_values``): a negative number where none was sent, an array element of
another JSON kind, text not shaped as the e-mail addresses or dates sent. What the application
does with it the capture cannot show, so the call is refused, state unchanged, saying what is
accepted."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import UnprovenValue, WritePlan
from capenv.interpreter.bundle.schema_precheck import Check, compile_precheck

from .calls import WriteRefusal

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a validator is compiled again when it was let go).
@lru_cache(maxsize=256)
def _validator(keywords: bytes) -> Draft202012Validator:
    # imported at first use: a build replays writes through this module and rarely validates, and
    # importing jsonschema (with referencing, rpds, attrs) cost every build ~40 ms of CPU
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(keywords))


def _plain(value: Any) -> Any:
    """``value`` as plain JSON (an exact number as its value); the usual leaves as they are."""
    kind = type(value)
    if kind is str or kind is bool or kind is int or value is None:
        return value
    text = dumps(value)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # an integer past 64 bits, which orjson does not read
        return json.loads(text)


def keeps_to(keywords: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` keeps to the JSON Schema ``keywords`` (as plain JSON: an exact number as its value)."""
    try:
        plain = _plain(value)
    except (TypeError, ValueError):
        return False
    return _validator(dumps(keywords, sort_keys=True)).is_valid(plain)


Accepting = tuple[tuple[str, UnprovenValue, Check | None], ...]
"""Each of a plan's unproven values, by its member's name, with its keywords compiled
(``compile_accepting``): the name read once per plan, not once per value per call (a model's
attribute costs ~10x a plain one: pydantic's ``__getattr__`` hook)."""


def compile_accepting(plan: WritePlan) -> Accepting:
    """Each unproven value's keywords compiled to plain Python (``schema_precheck``), made once
    per plan (``plans.PlanParts``): it only ever accepts what the validator accepts, so a value it
    accepts needs no validator, and any other goes to ``keeps_to`` as before. A served create of
    json-server's posts spent ~50 µs on three validations (``{"minimum": 0}``, ...); a keyword the
    precheck does not compile leaves its value to the validator (None)."""
    return tuple((unproven.member, unproven, compile_precheck(unproven.schema_keywords))
                 for unproven in plan.unproven_values)


def check_unproven_values(plan: WritePlan, body: dict[str, Any], accepting: Accepting | None = None) -> None:
    """Refuse the call when a member's value lacks a shape every recorded value of it kept to
    (``accepting``: the plan's ``compile_accepting``)."""
    checks = accepting if accepting is not None else tuple((u.member, u, None) for u in plan.unproven_values)
    for member, unproven, accepts in checks:
        if member not in body:
            continue
        value = body[member]
        if accepts is not None and accepts(value):
            continue
        if not keeps_to(unproven.schema_keywords, value):
            shown = excerpt(dumps(body[unproven.member]).decode(), 60)
            raise WriteRefusal(f"member {unproven.member!r} is {shown}: the recorded calls sent it only as "
                               f"{unproven.described}, so the capture cannot show what the application does with "
                               f"another value (it may refuse or convert it); accepted: {unproven.described}")
