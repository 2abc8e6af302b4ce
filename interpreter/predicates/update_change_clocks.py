"""Update-change predicates for clocks: a field stamped with an instant near the call's start, an
object whose only changes are such clocks, and whether a field holds an instant at all."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_change_context import ChangeParams, UpdateChangeContext
from .update_values import aware, brief, changed_leaves, instant_and_format, leaves, same_shape, same_value


class ClockWindowParams(ChangeParams):
    window_seconds: int = Field(default=600, ge=0)
    """How far from the call's start a stamped instant may lie."""


class NestedClockWindowParams(ClockWindowParams):
    later_read_tolerance_seconds: float = Field(default=2, ge=0)
    """How far a later read's stored instant may lie from the one the write answered with."""


@predicate("changed_to_clock", context="update-change", params=ClockWindowParams)
def changed_to_clock(ctx: UpdateChangeContext, params: ClockWindowParams) -> Outcome:
    """The field now holds a timestamp within a window of the call's start; its format is kept."""
    parsed = instant_and_format(ctx.new)
    if parsed is None:
        return Miss(f"{brief(ctx.new)} is no timestamp")
    distance = abs((parsed[0] - aware(ctx.started_at)).total_seconds())
    if distance > params.window_seconds:
        return Miss(f"{distance:.0f} s from the call's start, more than {params.window_seconds}")
    return Match({"params": {"format": parsed[1]}, "seconds_from_start": round(distance, 3)})


@predicate("changed_nested_clocks", context="update-change", params=NestedClockWindowParams)
def changed_nested_clocks(ctx: UpdateChangeContext, params: NestedClockWindowParams) -> Outcome:
    """An object the entity held whose only changes are clocks near the start, in one format, where
    the type's other entities hold the field as objects agreeing in every other member; a later
    read may store those clocks a little apart (Metabase)."""
    old, new = ctx.old, ctx.new
    if not isinstance(old, dict) or not isinstance(new, dict):
        return Miss("not an object the entity held")
    if not same_shape(old, new):
        return Miss("its members changed, not only their values")
    old_leaves, new_leaves, changed = changed_leaves(old, new)
    if not changed:
        return Miss("unchanged")
    clocks: dict[str, dict[str, Any]] = {}
    for pointer in changed:
        parsed = instant_and_format(new_leaves[pointer])
        if parsed is None:
            return Miss(f"{pointer} changed to {brief(new_leaves[pointer])}, no timestamp")
        if abs((parsed[0] - aware(ctx.started_at)).total_seconds()) > params.window_seconds:
            return Miss(f"{pointer} lies more than {params.window_seconds} s from the call's start")
        clocks[pointer] = parsed[1]
    if len({tuple(sorted(f.items())) for f in clocks.values()}) > 1:
        return Miss("its clocks are written in more than one format")
    problem = _others_disagree(ctx, new_leaves, set(changed))
    if problem:
        return Miss(problem)
    problem = _later_read_apart(ctx, new_leaves, set(changed), params.later_read_tolerance_seconds)
    if problem:
        return Miss(problem)
    return Match({"params": {"clocks": clocks}})


def _others_disagree(ctx: UpdateChangeContext, new_leaves: dict[str, Any], clocks: set[str]) -> str | None:
    others = [e[ctx.field] for e in ctx.other_entities if ctx.field in e]
    if not others:
        return "no other entity of the type holds the field"
    for other in others:
        if not isinstance(other, dict):
            return f"another entity holds {brief(other)} there, not an object"
        other_leaves = dict(leaves(other))
        if other_leaves.keys() != new_leaves.keys():
            return "another entity's object has other members"
        for pointer, value in new_leaves.items():
            if pointer not in clocks and not same_value(other_leaves[pointer], value):
                return f"another entity's object differs at {pointer}"
    return None


def _later_read_apart(ctx: UpdateChangeContext, new_leaves: dict[str, Any], clocks: set[str],
                      tolerance: float) -> str | None:
    if ctx.later_read is None or ctx.field not in ctx.later_read:
        return None
    stored = ctx.later_read[ctx.field]
    stored_leaves = dict(leaves(stored)) if isinstance(stored, dict) else {}
    if stored_leaves.keys() != new_leaves.keys():
        return "the later read stores another object"
    for pointer, value in new_leaves.items():
        if same_value(stored_leaves[pointer], value):
            continue
        answered, kept = instant_and_format(value), instant_and_format(stored_leaves[pointer])
        if pointer not in clocks or answered is None or kept is None:
            return f"the later read stores another value at {pointer}"
        if abs((kept[0] - answered[0]).total_seconds()) > tolerance:
            return f"the later read stores {pointer} more than {tolerance:g} s from the answer"
    return None


@predicate("changed_to_instant", context="update-change")
def changed_to_instant(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field holds an instant (an ISO-8601 timestamp or epoch seconds or milliseconds)."""
    parsed = instant_and_format(ctx.new)
    if parsed is None:
        return Miss(f"{brief(ctx.new)} is no instant")
    return Match({"instant": ctx.new})
