"""A query parameter whose value is a structure of named members, each read as a query of its own
(Flask-AppBuilder's rison ``q=(order_column:name,order_direction:desc,page:0,page_size:25)``).

Both sides read them alike: the build decides which parameter is such a container
(``view-structured-queries``) and learns each member as it learns a plain parameter, named
``q.order_column``; serving splits a call's container the same way before evaluating the learned
members. A member's value is given as text the learned queries read as they read a plain value (a
text as itself, a number as JSON prints it, ``true``/``false``/``null``, a list or object as compact
JSON text), with its kind beside it, so serving refuses a member sent as another kind than every
proving recording sent it (``page:'0'``, which Flask-AppBuilder's schema refuses, beside ``page:0``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import rison

SYNTAXES = ("rison",)
"""The container spellings read: rison (the ``rison`` package, successor of the ``prison`` parser
Flask-AppBuilder itself reads ``q`` with)."""

Member = tuple[str, str, str]
"""(member name, value as text, kind: text, number, boolean, null, array or object)."""


def members(value: str, syntax: str) -> list[Member] | None:
    """The members of ``value`` read as a ``syntax`` object, or None when it is none (another
    syntax, a parse error, an array or scalar, an empty object, a member holding a number that is
    not finite)."""
    if syntax != "rison":
        return None
    try:
        parsed = rison.loads(value)
    except Exception:  # the parser raises its own and built-in exceptions alike on bad input
        return None
    if not isinstance(parsed, dict) or not parsed:
        return None
    found = []
    for name, held in parsed.items():
        if not isinstance(name, str) or not name:
            return None
        text = member_text(held)
        if text is None:
            return None
        found.append((name, text, member_kind(held)))
    return found


def member_text(value: Any) -> str | None:
    """How a member's value reads as a query value (None: a number that is not finite)."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError:
        return None


def member_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "text"


def member_name(container: str, member: str) -> str:
    """The name a container's member is learned and served under (``q.order_column``)."""
    return f"{container}.{member}"


def expanded(pairs: tuple[tuple[str, str], ...], containers: dict[str, str]
             ) -> tuple[tuple[tuple[str, str], ...], dict[str, str]] | None:
    """``pairs`` (decoded) with each container parameter replaced by its members' pairs, and the
    kind each member was sent as; None when a container's value is no object of its syntax, or a
    plain parameter is spelled as a member's name (it would be read as the member)."""
    if not containers:
        return pairs, {}
    result: list[tuple[str, str]] = []
    kinds: dict[str, str] = {}
    for name, value in pairs:
        syntax = containers.get(name)
        if syntax is None:
            if any(name.startswith(f"{container}.") for container in containers):
                return None
            result.append((name, value))
            continue
        found = members(value, syntax)
        if found is None:
            return None
        for member, text, kind in found:
            result.append((member_name(name, member), text))
            kinds[member_name(name, member)] = kind
    return tuple(result), kinds
