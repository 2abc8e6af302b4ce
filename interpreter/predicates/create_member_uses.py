"""Member predicates on how the create used a sent member (context ``create-member``).

Accepted: the identity's value, an echo, a copy stored whole under another name, a source a
slug or template is rebuilt from. Not accepted: a member stored with another value
(transformed), or one no field shows. Each match names the ``field`` the member lands in,
when it lands whole in one, so the plan records the JSON type a call must send it as.
"""

from __future__ import annotations

from pydantic import BaseModel

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_contexts import CreateMemberContext, ExplainedField
from .create_values import escape_pointer, same_json

_REBUILDING_OPS = ("slug", "template")


def echoed_by(ctx: CreateMemberContext) -> ExplainedField | None:
    """The field that stores the member under its own name with the value sent."""
    for field in ctx.fields_by("echo"):
        if field.params.get("member") == ctx.member and field.field == ctx.member:
            return field
    return None


def copied_whole_by(ctx: CreateMemberContext) -> ExplainedField | None:
    """A field of another name the member's whole value is copied into."""
    pointer = "/" + escape_pointer(ctx.member)
    for field in ctx.fields_by("copy"):
        if field.params.get("pointer") == pointer and field.field != ctx.member:
            return field
    return None


def rebuilt_from(ctx: CreateMemberContext) -> ExplainedField | None:
    """A slug or template field the application rebuilds from the member's value."""
    for field in ctx.fields:
        if field.op == "slug" and field.params.get("member") == ctx.member:
            return field
        if field.op == "template" and any(
                isinstance(p, dict) and ctx.member in (p.get("member"), p.get("slug_of"), p.get("encoded_member"))
                for p in field.params.get("parts", [])):
            return field
    return None


@predicate("create_member_is_identity_value", context="create-member")
def create_member_is_identity_value(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """The identity field takes the member's value (the client names the new entity)."""
    if ctx.id_field not in ctx.entity:
        return Miss("the entity shows no identity field")
    for field in ctx.fields:
        if field.field != ctx.id_field:
            continue
        source = field.params.get("member") if field.op == "echo" else (
            field.params.get("pointer") if field.op == "copy" else None)
        if source in (ctx.member, "/" + escape_pointer(ctx.member)):
            return Match({"field": ctx.id_field})
    return Miss(f"the identity field {ctx.id_field!r} does not take it")


@predicate("create_member_is_echoed", context="create-member")
def create_member_is_echoed(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """A field of the member's own name stores the value sent (its rule is an echo)."""
    if echoed_by(ctx) is None:
        return Miss("no field echoes it")
    return Match({"field": ctx.member})


@predicate("create_member_is_copied_whole", context="create-member")
def create_member_is_copied_whole(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """A field of another name is copied from the whole member, of the same JSON type, and no field of its own name stores it."""
    field = copied_whole_by(ctx)
    if field is None:
        return Miss("no field is copied from the whole member")
    if ctx.member in ctx.entity:
        return Miss("also stored under its own name, as another value")
    if json_kind(ctx.entity.get(field.field)) != json_kind(ctx.value):
        return Miss(f"copied into {field.field!r} as another JSON type")
    return Match({"field": field.field})


@predicate("create_member_is_rebuilt_source", context="create-member")
def create_member_is_rebuilt_source(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """A slug or template field is rebuilt from the member's value, whatever a call sends."""
    field = rebuilt_from(ctx)
    if field is None:
        return Miss("no slug or template is rebuilt from it")
    return Match({"rebuilt_in": field.field, "op": field.op})


@predicate("create_member_is_transformed", context="create-member")
def create_member_is_transformed(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """The entity stores a field of the member's name with another value."""
    if ctx.member not in ctx.entity:
        return Miss("no field of its name")
    if same_json(ctx.entity[ctx.member], ctx.value):
        return Miss("stored as sent")
    return Match({"field": ctx.member})


@predicate("create_member_is_not_shown", context="create-member")
def create_member_is_not_shown(ctx: CreateMemberContext, params: BaseModel) -> Outcome:
    """No field shows the member: none echoes it, is copied from it whole, or is rebuilt from it."""
    for found, how in ((echoed_by(ctx), "echoes"), (copied_whole_by(ctx), "is copied from"),
                       (rebuilt_from(ctx), "is rebuilt from")):
        if found is not None:
            return Miss(f"field {found.field!r} {how} it")
    return Match({})
