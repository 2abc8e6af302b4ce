"""Members an update stores inside one object member of the entity, a group (ZenML's ``body`` and
``metadata``, JSON:API's ``attributes``): the member-admission predicate (context
``update-member``) and the change predicate of the group field (context ``update-change``).

A sent member is grouped where the entity holds no member of its name at its top and exactly one
of its object members holds it, as sent. The group field changed by such a call is explained when
every member of it that changed is a grouped member the call sent, stored as sent, or a clock near
the call's start, in one format, and the group keeps its members. Serving's ``grouped-members`` op
writes the sent members into the group the entity holds and stamps its clocks.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_change_clocks import ClockWindowParams
from .update_change_context import ABSENT, UpdateChangeContext
from .update_member_kinds import UpdateMemberContext, not_sent
from .update_values import aware, brief, changed_leaves, instant_and_format, same_shape, same_value


def sole_group(entity: dict[str, Any], member: str) -> str | None:
    """The one object member of ``entity`` holding ``member``, when the entity holds no member of
    that name at its top (None: none, several, or held at the top)."""
    if member in entity:
        return None
    groups = [name for name, value in entity.items() if isinstance(value, dict) and member in value]
    return groups[0] if len(groups) == 1 else None


@predicate("sent_value_grouped", context="update-member")
def sent_value_grouped(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The observation shows the member, as sent, inside the one object member of the entity that
    holds its name (the entity holds none at its top), an object the entity held before too."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.after is None:
        return Miss("unobserved")
    group = sole_group(ctx.after, ctx.member)
    if group is None:
        return Miss("no one object member of the entity holds it (or the entity holds it at its top)")
    if not same_value(ctx.after[group][ctx.member], ctx.sent_value):
        return Miss(f"{group} holds {brief(ctx.after[group][ctx.member])}, sent {brief(ctx.sent_value)}")
    if ctx.before is not None and not isinstance(ctx.before.get(group), dict):
        return Miss(f"the entity held no {group} object before")
    return Match({"group": group})


class GroupedChangeParams(ClockWindowParams):
    min_sent: int = Field(default=1, ge=1)
    """How many grouped members the call must send into it (else into the entity's other groups,
    when it changes only its clocks): the group is shown by members sent into the groups."""


@predicate("changed_grouped_members", context="update-change", params=GroupedChangeParams)
def changed_grouped_members(ctx: UpdateChangeContext, params: GroupedChangeParams) -> Outcome:
    """An object the entity held, the group of members the call sent, whose changed members are
    those members as sent or clocks near the call's start in one format; it keeps its members,
    and the type's other entities hold the field as objects of the same members. A group the call
    sent nothing into, while it sent members into another of the entity's groups, may change only
    its clocks (ZenML's ``body.updated``, stamped by an update of ``metadata``)."""
    old, new = ctx.old, ctx.new
    if not isinstance(old, dict) or not isinstance(new, dict) or old is ABSENT:
        return Miss("not an object the entity held")
    if old.keys() != new.keys():
        return Miss("its members changed, not only their values")
    sent = sorted(m for m in ctx.body if m in new and sole_group(ctx.after, m) == ctx.field)
    evidence: dict[str, Any] = {"sent": sent}
    if len(sent) < params.min_sent:
        elsewhere = sorted(m for m in ctx.body if m not in new and sole_group(ctx.after, m) not in (None, ctx.field))
        if len(elsewhere) < params.min_sent:
            return Miss(f"the call sent {len(sent)} member(s) it holds and {len(elsewhere)} into the entity's "
                        f"other groups, fewer than {params.min_sent}")
        evidence["sent_elsewhere"] = elsewhere
    for name in sent:
        if not same_value(new[name], ctx.body[name]):
            return Miss(f"{name} stored as {brief(new[name])}, sent {brief(ctx.body[name])}")
    return _stamped_group(ctx, params, old, new, sent, evidence)


def _stamped_group(ctx: UpdateChangeContext, params: GroupedChangeParams, old: dict[str, Any],
                   new: dict[str, Any], sent: list[str], evidence: dict[str, Any]) -> Outcome:
    """The group's other members unchanged or clocks near the call's start in one format, and the
    type's other entities holding the field as objects of the same members: a match whose
    ``params`` name the clocks serving stamps."""
    clocks: dict[str, dict[str, Any]] = {}
    for name in new:
        if name in sent:
            continue
        if not same_shape(old[name], new[name]):
            return Miss(f"/{name} changed its members")
        _, new_leaves, changed = changed_leaves(old[name], new[name])
        for pointer in changed:
            parsed = instant_and_format(new_leaves[pointer])
            if parsed is None:
                return Miss(f"/{name}{pointer} changed to {brief(new_leaves[pointer])}, neither sent nor a timestamp")
            if abs((parsed[0] - aware(ctx.started_at)).total_seconds()) > params.window_seconds:
                return Miss(f"/{name}{pointer} lies more than {params.window_seconds} s from the call's start")
            clocks[f"/{name}{pointer}"] = parsed[1]
    if len({tuple(sorted(f.items())) for f in clocks.values()}) > 1:
        return Miss("its clocks are written in more than one format")
    others = [e[ctx.field] for e in ctx.other_entities if ctx.field in e]
    if not others:
        return Miss("no other entity of the type holds the field")
    if any(not isinstance(o, dict) or o.keys() != new.keys() for o in others):
        return Miss("another entity holds the field otherwise than as an object of the same members")
    return Match({"params": {"clocks": clocks}, **evidence})
