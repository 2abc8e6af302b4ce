"""Field predicates for clocks: a timestamp near the call, an object of clocks (context ``create-field``).

The learned ``ClockFormat`` goes into ``op_params`` so serving writes its clock in the
recorded spelling (separator, fraction digits, zone; or epoch seconds or milliseconds).
"""

from __future__ import annotations

import re
from datetime import date, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .clock_formats import is_epoch, learn_clock_format, parse_instant, seconds_between
from .create_contexts import CreateFieldContext
from .create_values import pointers_breadth_first, same_json


class ClockWindowParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    window_seconds: float = Field(gt=0)
    """How far from the exemplar's start, either way, a timestamp may lie."""


@predicate("create_field_is_clock", context="create-field", params=ClockWindowParams)
def create_field_is_clock(ctx: CreateFieldContext, params: ClockWindowParams) -> Outcome:
    """A timestamp (ISO-8601, epoch seconds or milliseconds) within window_seconds of the exemplar's start; its format is kept."""
    if ctx.started_at is None:
        return Miss("the exemplar's start time is unknown")
    fmt = learn_clock_format(ctx.value)
    if fmt is None:
        return Miss("not a timestamp")
    instant = parse_instant(ctx.value, fmt)
    if instant is None:
        return Miss("not a readable instant")
    offset = seconds_between(instant, ctx.started_at)
    if abs(offset) > params.window_seconds:
        return Miss(f"{offset:+.0f} s from the start, outside {params.window_seconds:g} s")
    return Match({"style": fmt.style, "offset_seconds": round(offset, 3),
                  "op_params": {"format": fmt.model_dump()}})


class StartDayParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_days: int = Field(ge=0)
    """How many days either side of the start's UTC date the date may name (the server's zone is unknown)."""


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@predicate("create_field_is_start_day", context="create-field", params=StartDayParams)
def create_field_is_start_day(ctx: CreateFieldContext, params: StartDayParams) -> Outcome:
    """A calendar date (YYYY-MM-DD) the call did not send, within max_days of the exemplar's start date: the day of the call."""
    if not isinstance(ctx.value, str) or not _DATE.match(ctx.value):
        return Miss("not a date (YYYY-MM-DD)")
    if ctx.started_at is None:
        return Miss("the exemplar's start time is unknown")
    try:
        day = date.fromisoformat(ctx.value)
    except ValueError:
        return Miss("not a calendar date")
    if any(sent == ctx.value for sent in _sent_strings(ctx.body)):
        return Miss("the call sent it")
    start = ctx.started_at if ctx.started_at.tzinfo is None else ctx.started_at.astimezone(timezone.utc)
    days = (day - start.date()).days
    if abs(days) > params.max_days:
        return Miss(f"{days:+d} days from the start's date, more than {params.max_days}")
    return Match({"days_from_start": days})


def _sent_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _sent_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _sent_strings(v)]
    return []


class NestedClockParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    before_seconds: float = Field(ge=0)
    """A clock may lie this much before the start (a whole second's truncation)."""
    after_seconds: float = Field(ge=0)


@predicate("create_field_is_nested_clock", context="create-field", params=NestedClockParams)
def create_field_is_nested_clock(ctx: CreateFieldContext, params: NestedClockParams) -> Outcome:
    """An object whose every clock lies in [start - before_seconds, start + after_seconds] in one format, which the type's other entities hold agreeing in every other member and with other clocks."""
    if not isinstance(ctx.value, dict):
        return Miss("not an object")
    if ctx.started_at is None:
        return Miss("the exemplar's start time is unknown")
    clocks, reason = _clocks_in(ctx.value, ctx.started_at, params)
    if reason:
        return Miss(reason)
    others = ctx.others_holding(ctx.type_entities)
    if not others:
        return Miss("no other entity of the type holds the field")
    for other in others:
        problem = _disagreement(ctx.value, other, clocks)
        if problem:
            return Miss(problem)
    formats = {pointer: fmt.model_dump() for pointer, fmt in clocks.items()}
    return Match({"clocks": sorted(clocks), "op_params": {"clocks": formats}})


def _clocks_in(value: dict[str, Any], started_at: Any, params: NestedClockParams) -> tuple[dict[str, Any], str]:
    """The object's clocks by pointer, or a reason it is no nested clock.

    An ISO-8601 string is a clock wherever it lies; an epoch number only inside the window,
    since any integer (a count, a version) reads as some epoch.
    """
    clocks: dict[str, Any] = {}
    for pointer, item in pointers_breadth_first(value):
        fmt = learn_clock_format(item)
        if fmt is None:
            continue
        instant = parse_instant(item, fmt)
        offset = seconds_between(instant, started_at) if instant else None
        inside = offset is not None and -params.before_seconds <= offset <= params.after_seconds
        if is_epoch(fmt) and not inside:
            continue
        if not inside:
            where = "unreadable" if offset is None else f"{offset:+.3f} s from the start"
            return {}, f"the clock at {pointer} is {where}, outside -{params.before_seconds:g}/+{params.after_seconds:g} s"
        clocks[pointer] = fmt
    if not clocks:
        return {}, "holds no clock"
    if len({fmt for fmt in clocks.values()}) > 1:
        return {}, "its clocks are written in more than one format"
    return clocks, ""


def _disagreement(mine: dict[str, Any], other: Any, clocks: dict[str, Any]) -> str:
    """Why another entity's value is not the same object with other clocks ('' when it is)."""
    if not isinstance(other, dict):
        return "another entity holds the field as something other than an object"
    theirs = dict(pointers_breadth_first(other))
    ours = dict(pointers_breadth_first(mine))
    for pointer in clocks:
        if pointer not in theirs:
            return f"another entity's object has no clock at {pointer}"
        if same_json(theirs[pointer], ours[pointer]):
            return f"another entity holds the same clock at {pointer} (a reference, not a stamp)"
    for pointer, item in ours.items():
        if _under_any(pointer, clocks) or isinstance(item, (dict, list)):
            continue
        if pointer not in theirs or not same_json(theirs[pointer], item):
            return f"another entity's object differs at {pointer} (a reference to another entity)"
    for pointer, item in theirs.items():
        if not isinstance(item, (dict, list)) and pointer not in ours and not _under_any(pointer, clocks):
            return f"another entity's object has {pointer}, this one does not"
    return ""


def _under_any(pointer: str, clocks: dict[str, Any]) -> bool:
    return any(pointer == c or pointer.startswith(c + "/") for c in clocks)
