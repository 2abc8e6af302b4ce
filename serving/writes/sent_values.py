"""Refuse a create or update sending a value of a class no successful recorded call sent in the
member, where every one kept to a shape (``WritePlan.unproven_values``, learned by
``interpreter/plans/sent_values``): a negative number where none was sent, an array element of
another JSON kind, text not shaped as the e-mail addresses or dates sent. What the application
does with it the capture cannot show, so the call is refused, state unchanged, saying what is
accepted."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import orjson
from jsonschema import Draft202012Validator

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import WritePlan

from .calls import WriteRefusal


@lru_cache(maxsize=256)
def _validator(keywords: bytes) -> Draft202012Validator:
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


def check_unproven_values(plan: WritePlan, body: dict[str, Any]) -> None:
    """Refuse the call when a member's value lacks a shape every recorded value of it kept to."""
    for unproven in plan.unproven_values:
        if unproven.member in body and not keeps_to(unproven.schema_keywords, body[unproven.member]):
            shown = dumps(body[unproven.member]).decode()
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise WriteRefusal(f"member {unproven.member!r} is {shown}: the recorded calls sent it only as "
                               f"{unproven.described}, so the capture cannot show what the application does with "
                               f"another value (it may refuse or convert it); accepted: {unproven.described}")
