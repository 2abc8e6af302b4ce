"""The checks a write call gets before any value is computed: its query, its envelope, and its
body's members, JSON kinds and what data/get could write back. A refusal names what the plan
accepts, and comes before the state is touched."""

from __future__ import annotations

from typing import Any, NamedTuple

from capenv.interpreter.bundle.json_patch import ops_text, read_patch
from capenv.interpreter.bundle.jsonvalue import dumps, json_kind
from capenv.interpreter.bundle.models import WritePlan

from ..reads.call_match import same_value
from .calls import WriteCall, WriteRefusal
from .plans import KIND_OF_TYPE, PlanParts, member_facts, member_types
from .sent_values import check_unproven_values
from .stored_text import check_stored_text


def check_query(plan: WritePlan, call: WriteCall, parts: PlanParts) -> None:
    """Only the recorded parameters, each with its recorded value; names and values compare as
    reads compare them (as written, or once percent- or form-decoded: an MCP client sends
    ``a,b`` where the recording spelled ``a%2Cb``)."""
    if not call.query:
        return
    recorded = parts.query
    mask = plan.update_mask
    for name, value in call.query:
        if mask is not None and same_value(mask.param, name):
            continue  # any mask of members sent (masked_body)
        known = next((r for r in recorded if same_value(r, name)), None)
        if known is None:
            raise WriteRefusal(f"query parameter {name!r} is not accepted; the recording sent "
                               f"{dict(plan.query) or 'no query'}")
        if not same_value(value, recorded[known]):
            raise WriteRefusal(f"query parameter {name!r} must be {recorded[known]!r}, as recorded")


def masked_body(plan: WritePlan, call: WriteCall, body: dict[str, Any]) -> dict[str, Any]:
    """The members an update's mask names (``WritePlan.update_mask``), each one the body sends; a
    call sending no mask applies every member (a mask of what it sends)."""
    mask = plan.update_mask
    if mask is None:
        return body
    names = mask.named_in(call.query)
    if names is None:
        return body
    unsent = [name for name in names if name not in body]
    if not names or unsent:
        raise WriteRefusal(f"query parameter {mask.param!r} must name, separated by {mask.separator!r}, one or more "
                           f"members the body sends ({', '.join(sorted(body)) or 'none'})"
                           + (f"; it names {unsent}" if unsent else ""))
    return mask.masked(body, call.query)


def unwrap_body(plan: WritePlan, body: Any) -> dict[str, Any]:
    if plan.body_patch_ops:
        return patch_members(plan, body)
    if body is None:
        body = {}
    envelope = plan.body_envelope  # a model's attribute, read once
    if not envelope:
        if not isinstance(body, dict):
            raise WriteRefusal(f"the body must be a JSON object, not {json_kind(body)}")
        return body
    if isinstance(body, dict) and envelope in body and len(body) > 1:
        _refuse_envelope_siblings(plan, body)
    if plan.body_envelope_kind == "object":
        if not (isinstance(body, dict) and list(body) == [envelope]
                and isinstance(body[envelope], dict)):
            raise WriteRefusal(f"the body must be {{{envelope!r}: {{…the object…}}}}")
        body = body[envelope]
    else:
        if not (isinstance(body, dict) and list(body) == [envelope] and isinstance(body[envelope], list)
                and len(body[envelope]) == 1 and isinstance(body[envelope][0], dict)):
            raise WriteRefusal(f"the body must be {{{envelope!r}: [ {{…one object…}} ]}}")
        body = body[envelope][0]
    if not isinstance(body, dict):
        raise WriteRefusal(f"the body must be a JSON object, not {json_kind(body)}")
    return body


def patch_members(plan: WritePlan, body: Any) -> dict[str, Any]:
    """The members a JSON Patch body sets; a patch of other operations or paths is refused, naming
    what the plan takes (the operations the capture's calls used, on top-level members)."""
    reading = read_patch(body, plan.body_patch_ops)
    if reading.members is None:
        raise WriteRefusal(f"{reading.problem}; the body must be a JSON Patch array of {ops_text(plan.body_patch_ops)} "
                           'operations, each {"op", "path": "/member", "value"} on one top-level member, as the '
                           "recorded calls sent")
    return reading.members


def refuse_unheld_patch_targets(plan: WritePlan, body: Any, entity: dict[str, Any]) -> None:
    """RFC 6902 fails a ``replace`` of a member the entity lacks (§4.3), where a merge would add it."""
    if not plan.body_patch_ops:
        return
    for op, member in read_patch(body, plan.body_patch_ops).ops:
        if op == "replace" and member not in entity:
            raise WriteRefusal(f"replace of /{member}: the entity holds no {member!r} (RFC 6902 refuses it)")


def _refuse_envelope_siblings(plan: WritePlan, body: dict[str, Any]) -> None:
    """A member beside the envelope (Datasette's ``"return": true``, which adds the row to the
    answer) may change what the application answers, and the plan serves the envelope alone: the
    refusal names the members, so the caller knows to drop them rather than guess at the shape."""
    extra = ", ".join(repr(name) for name in body if name != plan.body_envelope)
    shape = "{…the object…}" if plan.body_envelope_kind == "object" else "[ {…one object…} ]"
    raise WriteRefusal(f"the body must be {{{plan.body_envelope!r}: {shape}}} alone: {extra} beside it is not "
                       f"accepted: this write serves the envelope alone, and a member beside it may change the answer")


_KIND_OF_TYPE = KIND_OF_TYPE


def _kind_ok(expected: str | None, value: Any) -> bool:
    if expected is None:
        return True
    actual = _KIND_OF_TYPE.get(type(value)) or json_kind(value)
    return actual == expected or (expected == "number" and actual == "integer")


_INT_RANGE = (-(2**63), 2**64 - 1)
"""The integers data/get writes as numbers (larger ones reach here only as exact ``JsonNumber``\\s)."""


class _BodyWalk(NamedTuple):
    exact: bool  # no float anywhere (``is_exact``)
    unwritable: str | None  # the first thing data/get could not write back
    depth: int  # nesting depth (``jsonvalue.depth``)


def _walk_body(value: Any) -> _BodyWalk:
    """The three checks a body gets, in one walk instead of three (a served write's hot path):
    exactness, what data/get could not write back (a ``__proto__`` member, an integer past 64
    bits, a string with a lone surrogate; the first found)
    and nesting depth."""
    exact, unwritable, deepest = True, None, 0
    low, high = _INT_RANGE
    stack: list[tuple[Any, int]] = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item, level = pop()
        kind = type(item)
        if kind is str:
            if unwritable is None and not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    unwritable = _LONE_SURROGATE
        elif kind is int:
            if unwritable is None and not low <= item <= high:
                unwritable = _PAST_64_BITS
        elif isinstance(item, dict):
            level += 1
            if unwritable is None and "__proto__" in item:
                unwritable = _PROTO
            for key in item:
                push((key, level))
            for member in item.values():
                push((member, level))
        elif isinstance(item, list):
            level += 1
            for member in item:
                push((member, level))
        elif isinstance(item, float):
            exact = False
        elif isinstance(item, str):
            if unwritable is None:
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    unwritable = _LONE_SURROGATE
        elif isinstance(item, int) and not isinstance(item, bool) and unwritable is None and not low <= item <= high:
            unwritable = _PAST_64_BITS
        if level > deepest:
            deepest = level
    return _BodyWalk(exact, unwritable, deepest)


def _plain_depth(value: Any) -> int | None:
    """The nesting depth of a body the walk would find nothing in (no float, nothing data/get
    could not write), else None: then ``_walk_body`` walks it again to say what, in its own
    order. The usual body is all ASCII text, small integers, booleans and nulls, and this walk
    pushes only its containers (a served write's hot path)."""
    if type(value) is not dict and type(value) is not list:
        return None
    low, high = _INT_RANGE
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, level = pop()
        if level > deepest:
            deepest = level
        if type(item) is dict:
            if "__proto__" in item:
                return None
            for key in item:
                if type(key) is not str or not key.isascii():
                    return None
            members: Any = item.values()
        else:
            members = item
        for member in members:
            kind = type(member)
            if kind is str:
                if not member.isascii():
                    return None
            elif kind is int:
                if not low <= member <= high:
                    return None
            elif kind is dict or kind is list:
                push((member, level + 1))
            elif kind is not bool and member is not None:
                return None  # a float, an exact number or another type: the full walk decides
    return deepest


def _walk(value: Any) -> _BodyWalk:
    depth = _plain_depth(value)
    return _walk_body(value) if depth is None else _BodyWalk(True, None, depth)


_PROTO = "a __proto__ member is not accepted anywhere in the body (data/add refuses it)"
_PAST_64_BITS = "an integer in the body is past 64 bits, which data/get cannot write exactly"
_LONE_SURROGATE = "a string in the body holds a lone surrogate, which is not UTF-8 and data/get cannot write"


def check_members(plan: WritePlan, body: dict[str, Any], max_nesting: int, parts: PlanParts | None = None) -> None:
    """Refuse a body the plan does not accept, naming what it does accept (``parts``: the
    plan's member rules by name, when the caller holds them)."""
    rules = parts.members if parts is not None else {m.member: m for m in plan.members}
    facts = parts.member_facts if parts is not None else member_facts(rules)
    plain = parts.member_types if parts is not None else member_types(rules)
    depth = _plain_depth(body)  # the usual body: nothing the full walk would refuse, only its depth to check
    if depth is None:
        walk = _walk_body(body)
        if not walk.exact:
            raise WriteRefusal("a number in the body is not exact (write it as an integer or exact decimal)")
        if walk.unwritable:
            raise WriteRefusal(walk.unwritable)
        depth = walk.depth
    if depth > max_nesting:
        raise WriteRefusal(f"the body nests deeper than {max_nesting} levels")
    kinds = _KIND_OF_TYPE
    for name, value in body.items():
        if name in plain:  # the usual member: its value's type alone says it passes every check below
            types = plain[name]
            if types is None or type(value) in types:
                continue
        held = facts[name] if name in facts else None
        if held is None or held[0] == "not-accepted":
            raise WriteRefusal(f"member {name!r} is not accepted; accepted members: "
                               f"{', '.join(_accepted(rules)) or 'none'}")
        admission, kind, nested, rule = held
        if kind is not None and (kinds[type(value)] if type(value) in kinds else None) != kind \
                and not _kind_ok(kind, value) and not (value is None and rule.nullable):
            raise WriteRefusal(f"member {name!r} must be a JSON {kind}{' or null' if rule.nullable else ''}, "
                               f"not {json_kind(value)}")
        if nested is not None and isinstance(value, dict) and set(value) != set(nested):
            raise WriteRefusal(f"member {name!r} is accepted only holding exactly "
                               f"{', '.join(nested)} (what the application stores for others left "
                               "out no recording shows)")
        if admission == "recorded-only" and value != rule.recorded_value:
            raise WriteRefusal(f"member {name!r} is accepted only with its recorded value "
                               f"{dumps(rule.recorded_value).decode()}")
    required = parts.required if parts is not None else [m for m, r in rules.items() if r.required]
    missing = None
    for member in required:  # a loop: a comprehension makes a function per call
        if member not in body:
            missing = [m for m in required if m not in body]
            break
    if missing:
        raise WriteRefusal(f"missing required member(s): {', '.join(missing)}")
    if plan.min_members and sum(1 for name in body if name in rules) < plan.min_members:
        raise WriteRefusal(f"send at least {plan.min_members} of: {', '.join(_accepted(rules))}")
    if plan.unproven_values:
        check_unproven_values(plan, body, parts.accepting if parts is not None else None)
    if plan.unproven_text:
        check_stored_text(plan, body, parts.text_classes if parts is not None else None)


def _accepted(rules: dict[str, Any]) -> list[str]:
    """The members a refusal names as accepted (built only for a refusal)."""
    return sorted(m for m, r in rules.items() if r.admission != "not-accepted")


def check_bulk_body(body: Any, max_nesting: int) -> None:
    """A bulk body, whatever its shape (an array, an object, none), gets the walk every body
    gets before its members are checked against the plan."""
    walk = _walk(body)
    if not walk.exact or walk.depth > max_nesting:
        raise WriteRefusal("the body holds an inexact number or nests too deep")
    if walk.unwritable:
        raise WriteRefusal(walk.unwritable)
