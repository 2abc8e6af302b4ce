"""Update-change predicates for values the application generates on update: a counter stepped by
one, a fresh UUID or opaque token (a version), and UUIDs renewed inside an object or array."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_values import token_shape
from .update_change_context import ABSENT, ChangeParams, UpdateChangeContext
from .update_values import (
    any_index, brief, changed_leaves, holds, is_opaque_token, is_uuid, leaves, same_shape, same_value,
)


class StepParams(ChangeParams):
    by: int = 1


class TokenParams(ChangeParams):
    min_token_length: int = Field(default=16, ge=1)
    max_token_length: int = Field(default=64, ge=1)
    hex_min_chars: int | None = Field(default=None, ge=1)
    """As the create's identity (``token_shape``): a token whose letters and digits are all
    hexadecimal, this many or more, stays hexadecimal."""


@predicate("changed_by_increment", context="update-change", params=StepParams)
def changed_by_increment(ctx: UpdateChangeContext, params: StepParams) -> Outcome:
    """An integer the entity held, now greater by one."""
    old, new = ctx.old, ctx.new
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (old, new)):
        return Miss("not an integer the entity held")
    if new - old != params.by:
        return Miss(f"{old} -> {new}, not +{params.by}")
    return Match({"params": {"by": params.by}})


@predicate("changed_to_fresh_unique", context="update-change", params=TokenParams)
def changed_to_fresh_unique(ctx: UpdateChangeContext, params: TokenParams) -> Outcome:
    """A UUID in place of a UUID, or an opaque token in place of one of the same length, that no
    other entity of the type holds and the call sent nowhere (a version assigned on every update)."""
    old, new = ctx.old, ctx.new
    if is_uuid(old) and is_uuid(new):
        if same_value(old, new):
            return Miss("the same UUID")
        shape: dict[str, Any] = {"format": "uuid", "uppercase": new == new.upper()}
    elif (is_opaque_token(old, params.min_token_length, params.max_token_length)
          and is_opaque_token(new, params.min_token_length, params.max_token_length) and len(old) == len(new)):
        if old == new:
            return Miss("the same token")
        if any(holds(value, new) for name, value in ctx.after.items() if name != ctx.field):
            return Miss("another field of the entity repeats the token")
        shape = {"format": "token", **token_shape(new, [old], hex_min_chars=params.hex_min_chars)}
    else:
        return Miss("not a UUID or opaque token in place of another of the same length")
    if any(holds(entity, new) for entity in ctx.other_entities):
        return Miss("another entity of the type holds it")
    if holds(ctx.body, new):
        return Miss("the call sent it")
    return Match({"params": shape})


@predicate("changed_by_renewed_uuids", context="update-change")
def changed_by_renewed_uuids(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """An array or object whose only changes are UUIDs replaced by ones neither it nor another
    entity held: every UUID at the renewed pointers new, one new for each old, alike everywhere."""
    old, new = ctx.old, ctx.new
    if not isinstance(old, (dict, list)) or not isinstance(new, (dict, list)):
        return Miss("not an array or object the entity held")
    if not same_shape(old, new):
        return Miss("its members or rows changed, not only values")
    old_leaves, new_leaves, changed = changed_leaves(old, new)
    if not changed:
        return Miss("unchanged")
    for pointer in changed:
        if not (is_uuid(old_leaves[pointer]) and is_uuid(new_leaves[pointer])):
            return Miss(f"{pointer} changed to {brief(new_leaves[pointer])}, not a UUID in place of a UUID")
    pointers = sorted({any_index(p) for p in changed})
    kept = [p for p, v in new_leaves.items() if any_index(p) in pointers and is_uuid(v) and p not in changed]
    if kept:
        return Miss(f"{kept[0]} kept its UUID, though the rows beside it were renewed")
    problem = _renewal_mapping_problem(ctx, old_leaves, new_leaves, changed)
    if problem:
        return Miss(problem)
    return Match({"params": {"pointers": pointers}, "renewed": len(changed)})


def _renewal_mapping_problem(ctx: UpdateChangeContext, old_leaves: dict[str, Any], new_leaves: dict[str, Any],
                             changed: list[str]) -> str | None:
    mapping: dict[str, str] = {}
    for pointer in changed:
        was, now = old_leaves[pointer].lower(), new_leaves[pointer].lower()
        if mapping.setdefault(was, now) != now:
            return f"one UUID renewed into two ({old_leaves[pointer]})"
    if len(set(mapping.values())) != len(mapping):
        return "two UUIDs renewed into one"
    for now in mapping.values():
        if holds(ctx.old, now):
            return f"{now} was already held by the field"
        if any(holds(entity, now) for entity in ctx.other_entities):
            return f"{now} is held by another entity of the type"
    for name, value in ctx.after.items():  # a renewed UUID is renewed alike in every field
        held = (ctx.before or {}).get(name, ABSENT)
        if name == ctx.field or held is ABSENT or not same_shape(held, value):
            continue
        after_leaves = dict(leaves(value))
        for pointer, was in leaves(held):
            if is_uuid(was) and was.lower() in mapping and not same_value(after_leaves[pointer], mapping[was.lower()]):
                return f"{name} keeps or renews {was} otherwise"
    return None
