"""A create's group field (context ``create-field``): an object member of the entity holding
members the call sent, as sent, under their own names (ZenML's ``body``), the rest of it clocks
near the start or kept as the exemplar's. Serving's ``grouped-members`` op builds it from the
exemplar's object, the sent members and the write's clock (seeds: "Field rules for creates"; the
group is the update's ``update_grouped_members`` on a create)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .clock_formats import learn_clock_format, parse_instant, seconds_between
from .create_contexts import CreateFieldContext, CreateMemberContext
from .create_values import escape_pointer, pointers_breadth_first
from .update_grouped_members import sole_group


class GroupedFieldParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    window_seconds: float = Field(ge=0)
    """A member of the group that is a timestamp within this of the exemplar's start takes the clock."""
    min_sent: int = Field(ge=1)
    """How many members the call sent into the group: the group is shown by members sent into it."""
    min_kept_length: int = Field(ge=1)
    """A kept member holding a sent string of this length or more is a copy no rule rebuilds."""


@predicate("create_field_groups_sent_members", context="create-field", params=GroupedFieldParams)
def create_field_groups_sent_members(ctx: CreateFieldContext, params: GroupedFieldParams) -> Outcome:
    """An object holding members the call sent, as sent, under their own names (the entity holds
    none of them at its top and no other of its objects does: a group, ZenML's body), whose other
    members are clocks near the start in one format or kept as the exemplar's, none repeating a
    sent string; the type's other entities hold it as an object of the same members."""
    value = ctx.value
    if not isinstance(value, dict):
        return Miss("not an object")
    if ctx.started_at is None:
        return Miss("the exemplar's start time is unknown")
    sent = sorted(m for m in ctx.body if m in value and sole_group(ctx.entity, m) == ctx.field)
    if len(sent) < params.min_sent:
        return Miss(f"holds {len(sent)} member(s) the call sent into it, fewer than {params.min_sent}")
    for name in sent:
        if not same_json(value[name], ctx.body[name]):
            return Miss(f"{name} stored otherwise than sent")
    sent_strings = {v for v in ctx.body.values() if isinstance(v, str) and len(v) >= params.min_kept_length}
    clocks: dict[str, Any] = {}
    for name, item in value.items():
        if name in sent:
            continue
        fmt = learn_clock_format(item) if isinstance(item, str) else None
        instant = parse_instant(item, fmt) if fmt is not None else None
        if instant is not None and abs(seconds_between(instant, ctx.started_at)) <= params.window_seconds:
            clocks["/" + escape_pointer(name)] = fmt.model_dump()
            continue
        if any(isinstance(leaf, str) and leaf in sent_strings for _, leaf in pointers_breadth_first({name: item})):
            return Miss(f"{name} repeats a string the call sent, which a kept value would not follow")
    if len({tuple(sorted(f.items())) for f in clocks.values()}) > 1:
        return Miss("its clocks are written in more than one format")
    others = ctx.others_holding(ctx.type_entities)
    if not others:
        return Miss("no other entity of the type holds the field")
    if any(not isinstance(o, dict) or o.keys() != value.keys() for o in others):
        return Miss("another entity holds the field otherwise than as an object of the same members")
    return Match({"sent": sent, "clocks": sorted(clocks),
                  "op_params": {"clocks": clocks, "base": value, "members": sent}})


@predicate("create_member_is_grouped", context="create-member")
def create_member_is_grouped(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """A group field's rule (grouped-members) writes the member into the group, as sent."""
    for field in ctx.fields:
        if field.op == "grouped-members" and ctx.member in (field.params.get("members") or ()):
            return Match({"group": field.field})
    return Miss("no group field writes it")
